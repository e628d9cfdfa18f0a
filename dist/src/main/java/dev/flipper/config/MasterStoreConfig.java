package dev.flipper.config;

/**
 * The master's token database ({@code master.jdbcUrl}, {@code master.jdbcUser}, {@code
 * master.jdbcPassword}). Launcher wiring rather than a setting of the master itself, which takes a
 * ready store. {@code jdbcUrl} "" = the database of the first {@code storage.jdbc} shard.
 * Immutable; {@link #toString()} masks the password.
 */
public record MasterStoreConfig(String jdbcUrl, String jdbcUser, String jdbcPassword) {

  @Override
  public String toString() {
    return "MasterStoreConfig[jdbcUrl="
        + jdbcUrl
        + ", jdbcUser="
        + jdbcUser
        + ", jdbcPassword="
        + (jdbcPassword.isEmpty() ? "" : ConfigValues.MASK)
        + "]";
  }
}
