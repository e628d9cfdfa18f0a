package dev.flipper.queue.redis;

import dev.flipper.queue.testing.TestServices;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The shared Redis of the tests (127.0.0.1:6379) and their isolation: each test uses its own random
 * key prefix and deletes exactly those keys afterwards (SCAN + DEL; never FLUSHALL or FLUSHDB).
 */
public final class RedisTestSupport {
  public static final String HOST = "127.0.0.1";
  public static final int PORT = 6379;

  private RedisTestSupport() {}

  /**
   * Fails (never skips) with a message saying what to do; at once when nothing listens on the port.
   * The tests that call it carry {@code @Tag("redis")}, which {@code ./flipper test --unit} leaves
   * out.
   */
  public static void requireRedis() {
    TestServices.requireRedis();
    try (Jedis jedis = new Jedis(HOST, PORT)) {
      jedis.ping();
    } catch (JedisConnectionException e) {
      throw new AssertionError(
          "the queue-redis tests need Redis 7+ on "
              + HOST
              + ":"
              + PORT
              + " and cannot reach it ("
              + e.getMessage()
              + "): run scripts/ensure-services.sh, or run the tests that need no service with"
              + " ./flipper test --unit",
          e);
    }
  }

  /** A key prefix no other test uses. */
  public static String randomPrefix() {
    return "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + ":";
  }

  /** A store over the shared Redis with the given shards (all on 127.0.0.1:6379, database 0). */
  public static RedisQueueStore store(String prefix, String... shardNames) {
    List<RedisShardConfig> shards = new ArrayList<>();
    for (String name : shardNames) {
      shards.add(RedisShardConfig.of(name, HOST, PORT));
    }
    return RedisQueueStore.builder()
        .shards(shards)
        .keyPrefix(prefix)
        .poolSize(8)
        .healthCheckInterval(Duration.ofMillis(200))
        .build();
  }

  public static List<String> keys(String prefix) {
    return keys(HOST, PORT, prefix);
  }

  public static List<String> keys(String host, int port, String prefix) {
    List<String> keys = new ArrayList<>();
    try (Jedis jedis = new Jedis(host, port)) {
      ScanParams params = new ScanParams().match(prefix + "*").count(1000);
      String cursor = ScanParams.SCAN_POINTER_START;
      do {
        ScanResult<String> page = jedis.scan(cursor, params);
        keys.addAll(page.getResult());
        cursor = page.getCursor();
      } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    }
    return keys;
  }

  /** Deletes every key of the prefix on the shared Redis. */
  public static void deleteKeys(String prefix) {
    List<String> keys = keys(prefix);
    try (Jedis jedis = new Jedis(HOST, PORT)) {
      for (int i = 0; i < keys.size(); i += 500) {
        jedis.del(keys.subList(i, Math.min(keys.size(), i + 500)).toArray(String[]::new));
      }
    }
  }

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
