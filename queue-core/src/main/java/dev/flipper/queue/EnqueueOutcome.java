package dev.flipper.queue;

/**
 * What an enqueue did with one job.
 *
 * @param job the new job, or for a duplicate the job that holds the unique key
 * @param duplicate true if the job's unique key was held, so no job was created
 */
public record EnqueueOutcome(JobDescriptor job, boolean duplicate) {}
