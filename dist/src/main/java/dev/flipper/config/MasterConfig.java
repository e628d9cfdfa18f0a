package dev.flipper.config;

/**
 * The {@code master} section. Immutable; {@link #toString()} masks the password.
 *
 * @param jdbcUrl the token database; "" = the database of the first storage.jdbc shard
 */
public record MasterConfig(int port, int adminPort, String jdbcUrl, String jdbcUser, String jdbcPassword) {

  static MasterConfig from(ConfigValues v) {
    return new MasterConfig(v.integer("master.port"), v.integer("master.adminPort"), v.text("master.jdbcUrl"),
        v.text("master.jdbcUser"), v.text("master.jdbcPassword"));
  }

  @Override
  public String toString() {
    return "MasterConfig[port=" + port + ", adminPort=" + adminPort + ", jdbcUrl=" + jdbcUrl + ", jdbcUser="
        + jdbcUser + ", jdbcPassword=" + (jdbcPassword.isEmpty() ? "" : "*****") + "]";
  }
}
