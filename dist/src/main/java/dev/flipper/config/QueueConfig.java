package dev.flipper.config;

import java.time.Duration;

/** The {@code queue} section: the queue server. {@link #toString()} masks the password hash. Immutable. */
public record QueueConfig(
    int port,
    int adminPort,
    int priorityLevels,
    int maxBodyBytes,
    int maxFrameBytes,
    Duration claimTimeout,
    Duration succeededTtl,
    Duration failedTtl,
    Duration monitorInterval,
    int monitorBatchSize,
    String rateLimitFile,
    String serverSetFile,
    String adminPasswordHash,
    Duration longPollTimeout) {

  static QueueConfig from(ConfigValues v) {
    return new QueueConfig(
        v.integer("queue.port"),
        v.integer("queue.adminPort"),
        v.integer("queue.priorityLevels"),
        v.integer("queue.maxBodyBytes"),
        v.integer("queue.maxFrameBytes"),
        v.duration("queue.claimTimeout"),
        v.duration("queue.succeededTtl"),
        v.duration("queue.failedTtl"),
        v.duration("queue.monitorInterval"),
        v.integer("queue.monitorBatchSize"),
        v.text("queue.rateLimitFile"),
        v.text("queue.serverSetFile"),
        v.text("queue.adminPasswordHash"),
        v.duration("queue.longPollTimeout"));
  }

  @Override
  public String toString() {
    return "QueueConfig[port=" + port + ", adminPort=" + adminPort + ", priorityLevels=" + priorityLevels
        + ", maxBodyBytes=" + maxBodyBytes + ", maxFrameBytes=" + maxFrameBytes + ", claimTimeout=" + claimTimeout
        + ", succeededTtl=" + succeededTtl + ", failedTtl=" + failedTtl + ", monitorInterval=" + monitorInterval
        + ", monitorBatchSize=" + monitorBatchSize + ", rateLimitFile=" + rateLimitFile + ", serverSetFile="
        + serverSetFile + ", adminPasswordHash=" + (adminPasswordHash.isEmpty() ? "" : ConfigValues.MASK)
        + ", longPollTimeout=" + longPollTimeout + "]";
  }
}
