package dev.flipper.queue;

/**
 * A job returned by a dequeue. The attempt counts are as stored before this attempt: on the first
 * dequeue {@code attemptsRemaining == attemptsAllowed}.
 */
public record DequeuedJob(
    JobDescriptor descriptor, byte[] body, int attemptsAllowed, int attemptsRemaining) {}
