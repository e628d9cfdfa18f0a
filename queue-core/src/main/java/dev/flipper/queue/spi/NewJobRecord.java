package dev.flipper.queue.spi;

/** A validated job to insert; the custom status is already truncated. */
public record NewJobRecord(
    int priority,
    byte[] body,
    long runAfterMillis,
    int attemptsAllowed,
    String customStatus,
    long createdAtMillis) {}
