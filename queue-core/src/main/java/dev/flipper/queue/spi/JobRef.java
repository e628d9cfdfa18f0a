package dev.flipper.queue.spi;

/** A job within one queue and shard: its priority and local id. */
public record JobRef(int priority, long localId) {}
