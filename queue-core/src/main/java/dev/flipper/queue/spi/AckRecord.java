package dev.flipper.queue.spi;

/**
 * One ack for a shard: the job, the text to append to its custom status ("" for none), the retry
 * delay.
 */
public record AckRecord(JobRef job, String appendCustomStatus, long retryDelayMillis) {}
