package dev.flipper.launcher.modes;

import dev.flipper.config.FlipperConfig;
import dev.flipper.config.MasterStoreConfig;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.token.spi.TokenStore;

/**
 * Opens the master's token store from the config. The launcher does this, not the master, so that
 * the workflow modules need no storage library (as the queue server gets a ready {@code
 * QueueService}).
 */
public final class TokenStores {
  private TokenStores() {}

  /** Opens the master's database; the caller (the master daemon) closes it. */
  public static TokenStore open(FlipperConfig config) {
    return JdbcTokenStore.open(database(config));
  }

  /** The master's database: master.jdbcUrl, or else the database of the first JDBC shard. */
  private static JdbcTokenStoreConfig database(FlipperConfig config) {
    MasterStoreConfig master = config.masterStore();
    if (!master.jdbcUrl().isEmpty()) {
      return JdbcTokenStoreConfig.of(master.jdbcUrl(), master.jdbcUser(), master.jdbcPassword());
    }
    JdbcShardConfig first = config.storage().jdbc().shards().get(0);
    return JdbcTokenStoreConfig.of(first.url(), first.user(), first.password());
  }
}
