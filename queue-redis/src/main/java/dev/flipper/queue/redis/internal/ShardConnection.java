package dev.flipper.queue.redis.internal;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.redis.RedisShardConfig;
import java.util.function.Function;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The connections to one Redis database: a pool for requests, a separate connection for health
 * pings, and the translation of Jedis errors into {@link QueueException}s. Thread-safe.
 */
public final class ShardConnection implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ShardConnection.class);

  /** The start of the error a script returns when its queue's meta key is missing. */
  static final String QUEUE_NOT_FOUND_REPLY = "QUEUE_NOT_FOUND";

  private final RedisShardConfig config;
  private final JedisClientConfig clientConfig;
  private final JedisPool pool;
  private final ShardHealth health;
  private final Scripts scripts;
  private final ConnectionSettings settings;
  private Jedis pingConnection; // used by the health thread only
  private volatile boolean scriptsLoaded;
  private volatile boolean closed;

  public ShardConnection(RedisShardConfig config, ConnectionSettings settings, Scripts scripts) {
    this.config = config;
    this.settings = settings;
    this.scripts = scripts;
    DefaultJedisClientConfig.Builder client =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis((int) settings.connectTimeout().toMillis())
            .socketTimeoutMillis((int) settings.socketTimeout().toMillis())
            .database(config.database())
            .clientName("flipper-queue");
    if (!config.password().isEmpty()) {
      client.password(config.password());
    }
    this.clientConfig = client.build();
    GenericObjectPoolConfig<Jedis> poolConfig = new GenericObjectPoolConfig<>();
    poolConfig.setMaxTotal(settings.poolSize());
    poolConfig.setMaxIdle(settings.poolSize());
    poolConfig.setMinIdle(0);
    poolConfig.setBlockWhenExhausted(true);
    poolConfig.setMaxWait(settings.borrowTimeout());
    poolConfig.setJmxEnabled(false);
    this.pool =
        new JedisPool(poolConfig, new HostAndPort(config.host(), config.port()), clientConfig);
    this.health = new ShardHealth(settings.deadAfterFailures(), settings.liveAfterSuccesses());
  }

  public RedisShardConfig config() {
    return config;
  }

  public ShardHealth health() {
    return health;
  }

  /** Pooled connections borrowed right now (tests, diagnostics). */
  public int activeConnections() {
    return pool.getNumActive();
  }

  /**
   * Runs {@code operation} on a pooled connection. {@code operation} names it in error messages;
   * {@code queue} (null for none) is the queue it works on, named by QUEUE_NOT_FOUND.
   */
  public <T> T call(String operationName, String queue, Function<Jedis, T> operation) {
    String what = queue == null ? operationName : operationName + " on queue '" + queue + "'";
    if (closed) {
      throw new QueueException(
          ErrorCode.SHARD_CONNECTION_FAILED,
          "Redis shard '"
              + config.name()
              + "' at "
              + config.address()
              + " was removed from the configuration; "
              + what
              + " was not run");
    }
    try (Jedis jedis = pool.getResource()) {
      if (!scriptsLoaded) {
        scripts.loadAll(jedis);
        scriptsLoaded = true;
      }
      return operation.apply(jedis);
    } catch (JedisConnectionException e) {
      dropIdleConnections();
      if (health.connectionFailed()) {
        log.warn(
            "Redis shard '{}' at {} marked dead: {} failed: {}",
            config.name(),
            config.address(),
            what,
            e.getMessage());
      }
      throw new QueueException(
          ErrorCode.SHARD_CONNECTION_FAILED,
          "cannot reach Redis shard '"
              + config.name()
              + "' at "
              + config.host()
              + ":"
              + config.port()
              + " during "
              + what
              + ": "
              + e.getMessage(),
          e);
    } catch (JedisDataException e) {
      if (queue != null
          && e.getMessage() != null
          && e.getMessage().startsWith(QUEUE_NOT_FOUND_REPLY)) {
        throw QueueException.queueNotFound(queue);
      }
      throw new QueueException(
          ErrorCode.UNKNOWN,
          "Redis shard '"
              + config.name()
              + "' at "
              + config.address()
              + " refused "
              + what
              + ": "
              + e.getMessage(),
          e);
    } catch (JedisException e) {
      // Not a connection error: every pooled connection is busy.
      throw new QueueException(
          ErrorCode.UNKNOWN,
          "no free connection to Redis shard '"
              + config.name()
              + "' at "
              + config.address()
              + " for "
              + what
              + " within "
              + settings.borrowTimeout().toMillis()
              + " ms (pool: "
              + pool.getNumActive()
              + " active, "
              + pool.getNumIdle()
              + " idle, "
              + pool.getNumWaiters()
              + " waiting, max "
              + settings.poolSize()
              + "); raise poolSize or lower the load",
          e);
    }
  }

  /**
   * Closes every idle pooled connection. After one connection error the others were most likely
   * opened to the same server process and are dead too (a restart): without this each failed a
   * request of its own and marked the shard dead again, one ~6 s dead/alive cycle per pooled
   * connection (a 4.4 s restart gave 95.8 s of errors). Connections in use fail on their own and
   * are discarded as broken.
   */
  private void dropIdleConnections() {
    try {
      pool.clear();
    } catch (RuntimeException e) {
      log.debug("clearing the pool of Redis shard '{}' failed", config.name(), e);
    }
  }

  /** One health ping on the dedicated connection; updates {@link #health()}. Health thread only. */
  synchronized void ping() {
    if (closed) {
      return;
    }
    try {
      if (pingConnection == null || !pingConnection.isConnected()) {
        closePingConnection();
        pingConnection = new Jedis(new HostAndPort(config.host(), config.port()), clientConfig);
      }
      pingConnection.ping();
      if (health.pingSucceeded()) {
        dropIdleConnections(); // returned while the server was away: each would fail once more
        log.info("Redis shard '{}' at {} is live again", config.name(), config.address());
      }
    } catch (JedisException e) {
      closePingConnection();
      if (health.pingFailed()) {
        log.warn(
            "Redis shard '{}' at {} marked dead after failed health pings: {}",
            config.name(),
            config.address(),
            e.getMessage());
      }
    }
  }

  private void closePingConnection() {
    if (pingConnection != null) {
      try {
        pingConnection.close();
      } catch (RuntimeException e) {
        log.debug("closing the health connection of shard '{}' failed", config.name(), e);
      }
      pingConnection = null;
    }
  }

  /**
   * Closes the pool; operations still running finish, later ones fail with SHARD_CONNECTION_FAILED.
   */
  @Override
  public void close() {
    closed = true;
    pool.close();
    synchronized (this) {
      closePingConnection();
    }
    log.debug("closed the connections to Redis shard '{}' at {}", config.name(), config.address());
  }
}
