package dev.flipper.queue.spi;

/**
 * One checkpoint for a shard. Null fields are left unchanged; {@code runAfterMillis} is already
 * resolved (now when the caller gave none).
 */
public record CheckpointRecord(
    JobRef job,
    byte[] newBody,
    boolean moveToPending,
    long runAfterMillis,
    Integer attemptsAllowed,
    String prependCustomStatus) {}
