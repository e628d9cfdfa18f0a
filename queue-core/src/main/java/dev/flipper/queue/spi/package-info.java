/**
 * The storage SPI: the per-shard primitives a backend implements. {@link
 * dev.flipper.queue.QueueService} holds all backend-independent logic (validation, priorities
 * across shards, piggy-backed acks, scan merging); a backend only stores and transitions jobs, each
 * primitive atomically. Every backend passes the same contract suite ({@code QueueContractTest} in
 * queue-core's test jar).
 *
 * <p>Times are epoch milliseconds from the service's clock, never the database's, so every backend
 * and every test sees the same time.
 */
package dev.flipper.queue.spi;
