package dev.flipper.config;

/** One JDBC shard. {@link #toString()} masks the password. Immutable. */
public record JdbcShard(String name, String url, String user, String password, boolean dequeueOnly) {

  static JdbcShard from(ConfigValues v) {
    return new JdbcShard(v.text("name"), v.text("url"), v.text("user"), v.text("password"), v.bool("dequeueOnly"));
  }

  @Override
  public String toString() {
    return "JdbcShard[name=" + name + ", url=" + url + ", user=" + user + ", password="
        + (password.isEmpty() ? "" : ConfigValues.MASK) + ", dequeueOnly=" + dequeueOnly + "]";
  }
}
