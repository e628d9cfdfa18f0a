package dev.flipper.config;

import java.util.List;

/** The {@code storage.redis} section. Immutable. */
public record RedisStorageConfig(List<RedisShard> shards, String keyPrefix) {

  static RedisStorageConfig from(ConfigValues v) {
    return new RedisStorageConfig(
        v.items("storage.redis.shards").stream().map(RedisShard::from).toList(), v.text("storage.redis.keyPrefix"));
  }
}
