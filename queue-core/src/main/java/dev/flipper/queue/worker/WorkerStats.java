package dev.flipper.queue.worker;

/**
 * Counters of a {@link QueueWorker} since it started, taken at one moment.
 *
 * @param dequeueCalls dequeue calls made, failed ones included
 * @param dequeueErrors dequeue calls that failed (rate limited, queue server unreachable, ...)
 * @param jobsDequeued jobs claimed
 * @param jobsSucceeded jobs whose handler returned
 * @param jobsFailed jobs whose handler threw
 * @param running jobs running now
 * @param acksDelivered acks the queue confirmed (piggy-backed or sent alone)
 * @param ackErrors ack sends that failed and were kept for another try
 * @param acksExpired acks given up because the job's claim had surely expired (the queue retries
 *     the job)
 * @param pendingAcks acks waiting to be sent now
 * @param heartbeats checkpoint heartbeats delivered for long-running jobs
 * @param heartbeatErrors heartbeat calls that failed
 */
public record WorkerStats(
    long dequeueCalls,
    long dequeueErrors,
    long jobsDequeued,
    long jobsSucceeded,
    long jobsFailed,
    int running,
    long acksDelivered,
    long ackErrors,
    long acksExpired,
    int pendingAcks,
    long heartbeats,
    long heartbeatErrors) {}
