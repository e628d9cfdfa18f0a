package dev.flipper.queue.spi;

/**
 * What {@link ShardStore#enqueueUnique} did with one job.
 *
 * @param job the job inserted, or the job that holds the key
 * @param duplicate true if the key was held, so nothing was inserted
 */
public record UniqueInsert(JobRef job, boolean duplicate) {}
