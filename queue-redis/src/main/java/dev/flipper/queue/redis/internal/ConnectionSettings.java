package dev.flipper.queue.redis.internal;

import java.time.Duration;

/**
 * How the store talks to every shard.
 *
 * @param poolSize the most connections per shard
 * @param connectTimeout how long to wait for a TCP connection
 * @param socketTimeout how long to wait for a reply (also bounds a long-running script)
 * @param borrowTimeout how long a request waits for a free pooled connection
 * @param deadAfterFailures consecutive failed health pings that mark a shard dead
 * @param liveAfterSuccesses consecutive good health pings that mark a dead shard live again
 */
public record ConnectionSettings(
    int poolSize,
    Duration connectTimeout,
    Duration socketTimeout,
    Duration borrowTimeout,
    int deadAfterFailures,
    int liveAfterSuccesses) {}
