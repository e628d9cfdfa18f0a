package dev.flipper.config;

/** One Redis shard. {@link #toString()} masks the password. Immutable. */
public record RedisShard(String name, String host, int port, int database, String password, boolean dequeueOnly) {

  static RedisShard from(ConfigValues v) {
    return new RedisShard(v.text("name"), v.text("host"), v.integer("port"), v.integer("database"),
        v.text("password"), v.bool("dequeueOnly"));
  }

  @Override
  public String toString() {
    return "RedisShard[name=" + name + ", host=" + host + ", port=" + port + ", database=" + database
        + ", password=" + (password.isEmpty() ? "" : ConfigValues.MASK) + ", dequeueOnly=" + dequeueOnly + "]";
  }
}
