package dev.flipper.config;

import java.util.List;

/** The {@code storage.jdbc} section. Immutable. */
public record JdbcStorageConfig(List<JdbcShard> shards, int poolSize) {

  static JdbcStorageConfig from(ConfigValues v) {
    return new JdbcStorageConfig(
        v.items("storage.jdbc.shards").stream().map(JdbcShard::from).toList(), v.integer("storage.jdbc.poolSize"));
  }
}
