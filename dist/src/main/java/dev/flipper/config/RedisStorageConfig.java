package dev.flipper.config;

import dev.flipper.queue.redis.RedisShardConfig;
import java.util.List;

/**
 * The {@code storage.redis} section: the shards, bound straight into queue-redis's {@link
 * RedisShardConfig} (whose {@code toString()} masks the password), and the key prefix. Immutable.
 */
public record RedisStorageConfig(List<RedisShardConfig> shards, String keyPrefix) {}
