package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.fail;

import dev.flipper.queue.JobQueue;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.contract.QueueContractTest;
import dev.flipper.queue.contract.TestShard;
import dev.flipper.queue.redis.RedisQueueStore;
import dev.flipper.queue.redis.RedisShardConfig;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.testing.TestServices;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The whole queue contract through the wire on the local Redis (127.0.0.1:6379): each test's shards
 * live under its own key prefix, deleted afterwards (SCAN + DEL; nothing else on the server is
 * touched).
 */
@Tag("redis")
class ThriftRedisContractTest extends QueueContractTest {
  private static final String HOST = "127.0.0.1";
  private static final int PORT = 6379;

  private String prefix;
  private List<RedisShardConfig> shards;

  @Override
  protected QueueStore openStore(List<TestShard> testShards) {
    TestServices.requireRedis();
    try (Jedis jedis = new Jedis(HOST, PORT)) {
      jedis.ping();
    } catch (RuntimeException e) {
      fail(
          "Redis does not answer on "
              + HOST
              + ":"
              + PORT
              + " ("
              + e.getMessage()
              + "); run scripts/ensure-services.sh, which installs and starts it");
    }
    prefix = "flipper_t_" + UUID.randomUUID().toString().substring(0, 8) + ":";
    shards =
        testShards.stream()
            .map(s -> new RedisShardConfig(s.name(), HOST, PORT, 0, null, s.dequeueOnly()))
            .toList();
    return open();
  }

  @Override
  protected QueueStore openSecondStore() {
    return open();
  }

  @Override
  protected JobQueue expose(QueueService service) {
    return RemoteJobQueue.serve(service);
  }

  @Override
  protected void dropStorage() {
    try (Jedis jedis = new Jedis(HOST, PORT)) {
      String cursor = ScanParams.SCAN_POINTER_START;
      do {
        ScanResult<String> page =
            jedis.scan(cursor, new ScanParams().match(prefix + "*").count(1000));
        if (!page.getResult().isEmpty()) {
          jedis.del(page.getResult().toArray(String[]::new));
        }
        cursor = page.getCursor();
      } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    }
  }

  private RedisQueueStore open() {
    return RedisQueueStore.builder().shards(shards).keyPrefix(prefix).poolSize(8).build();
  }
}
