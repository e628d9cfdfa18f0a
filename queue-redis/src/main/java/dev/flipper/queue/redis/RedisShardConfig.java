package dev.flipper.queue.redis;

import java.util.Objects;

/**
 * One Redis shard: a named database on one Redis server. Several shards may share a server
 * (different databases, or even the same database: every key embeds the shard name). Immutable.
 *
 * @param name the shard's name in job descriptors; letters, digits, '_' and '-' only (it becomes
 *     part of a Redis Cluster hash tag, so ':', '{' and '}' are not allowed)
 * @param host the Redis host name or address
 * @param port the Redis TCP port, 1..65535
 * @param database the Redis database index, >= 0 (0 on a Redis Cluster)
 * @param password the Redis password (AUTH); null or empty for none
 * @param dequeueOnly true to stop new jobs going to this shard while it is drained
 */
public record RedisShardConfig(
    String name, String host, int port, int database, String password, boolean dequeueOnly) {

  /** Redis's own port. */
  public static final int DEFAULT_PORT = 6379;

  public RedisShardConfig {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(host, "host");
    if (!name.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException(
          "Redis shard name '" + name + "' is invalid: use letters, digits, '_' and '-' only");
    }
    if (host.isBlank()) {
      throw new IllegalArgumentException("Redis shard '" + name + "': host must not be blank");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "Redis shard '" + name + "': port must be 1..65535, was " + port);
    }
    if (database < 0) {
      throw new IllegalArgumentException(
          "Redis shard '" + name + "': database must be >= 0, was " + database);
    }
    password = password == null ? "" : password;
  }

  /** A writable shard on database 0 without a password. */
  public static RedisShardConfig of(String name, String host, int port) {
    return new RedisShardConfig(name, host, port, 0, "", false);
  }

  /**
   * A writable shard on {@value #DEFAULT_PORT}, database 0, without a password: the defaults of a
   * shard of the config's storage.redis.shards.
   */
  public static RedisShardConfig of(String name, String host) {
    return of(name, host, DEFAULT_PORT);
  }

  public RedisShardConfig withDequeueOnly(boolean newDequeueOnly) {
    return new RedisShardConfig(name, host, port, database, password, newDequeueOnly);
  }

  /** {@code host:port/database}, for messages. */
  public String address() {
    return host + ":" + port + "/" + database;
  }

  /** True if both configs reach the same Redis database with the same credentials. */
  public boolean sameConnection(RedisShardConfig other) {
    return host.equals(other.host)
        && port == other.port
        && database == other.database
        && password.equals(other.password);
  }

  @Override
  public String toString() {
    return "RedisShardConfig[name="
        + name
        + ", address="
        + address()
        + ", password="
        + (password.isEmpty() ? "<none>" : "****")
        + ", dequeueOnly="
        + dequeueOnly
        + "]";
  }
}
