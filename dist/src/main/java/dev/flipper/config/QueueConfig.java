package dev.flipper.config;

import java.time.Duration;

/**
 * The {@code queue} section: the settings of the queue service, its monitor and its Thrift server, which the
 * queue mode hands to their three builders (no module has one type for all three).
 * {@link #toString()} masks the password hash. Immutable.
 */
public record QueueConfig(
    String bindAddress,
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
    Duration longPollTimeout,
    int directCallLimitMicros,
    Duration idleTimeout,
    Duration frameReadTimeout,
    int bodyFilterStepsPerBody,
    Duration bodyFilterTimePerCall) {

  @Override
  public String toString() {
    return "QueueConfig[bindAddress=" + bindAddress + ", port=" + port + ", adminPort=" + adminPort
        + ", priorityLevels=" + priorityLevels + ", maxBodyBytes=" + maxBodyBytes + ", maxFrameBytes=" + maxFrameBytes + ", claimTimeout=" + claimTimeout
        + ", succeededTtl=" + succeededTtl + ", failedTtl=" + failedTtl + ", monitorInterval=" + monitorInterval
        + ", monitorBatchSize=" + monitorBatchSize + ", rateLimitFile=" + rateLimitFile + ", serverSetFile="
        + serverSetFile + ", adminPasswordHash=" + (adminPasswordHash.isEmpty() ? "" : ConfigValues.MASK)
        + ", longPollTimeout=" + longPollTimeout + ", directCallLimitMicros=" + directCallLimitMicros
        + ", idleTimeout=" + idleTimeout
        + ", frameReadTimeout=" + frameReadTimeout + ", bodyFilterStepsPerBody=" + bodyFilterStepsPerBody
        + ", bodyFilterTimePerCall=" + bodyFilterTimePerCall + "]";
  }
}
