package dev.flipper.config;

import dev.flipper.queue.mysql.JdbcShardConfig;
import java.util.List;

/**
 * The {@code storage.jdbc} section: the shards, bound straight into queue-mysql's {@link
 * JdbcShardConfig} (whose {@code toString()} masks the password), and the pool size per shard.
 * Immutable.
 */
public record JdbcStorageConfig(List<JdbcShardConfig> shards, int poolSize) {}
