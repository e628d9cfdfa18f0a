package dev.flipper.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.redis.internal.RedisShard;
import dev.flipper.queue.spi.ShardStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shard list changes at run time: pools of unchanged shards are kept, new shards get the
 * queues.
 */
@Tag("redis")
class ReconfigureTest {
  private String prefix;
  private RedisQueueStore store;

  @BeforeEach
  void open() {
    RedisTestSupport.requireRedis();
    prefix = RedisTestSupport.randomPrefix();
    store = RedisTestSupport.store(prefix, "1");
  }

  @AfterEach
  void close() {
    store.close();
    RedisTestSupport.deleteKeys(prefix);
  }

  @Test
  void addingAShardRegistersTheExistingQueuesAndKeepsTheOldPool() {
    ShardStore first = store.shards().get(0);
    first.createQueue("mail");
    first.createQueue("thumbs");

    store.reconfigure(List.of(config("1", false), config("2", false)));

    assertThat(store.shards()).extracting(ShardStore::name).containsExactly("1", "2");
    assertThat(store.shards().get(0)).as("unchanged shard kept as is").isSameAs(first);
    assertThat(store.shards().get(1).queueNames()).containsExactlyInAnyOrder("mail", "thumbs");
    assertThat(store.shards().get(1).queueExists("mail")).isTrue();
  }

  @Test
  void changingTheDequeueOnlyFlagKeepsTheConnections() {
    RedisShard before = (RedisShard) store.shards().get(0);

    store.reconfigure(List.of(config("1", true)));

    RedisShard after = (RedisShard) store.shards().get(0);
    assertThat(after.dequeueOnly()).isTrue();
    assertThat(after.connection()).isSameAs(before.connection());
    after.createQueue("still_works");
    assertThat(after.queueExists("still_works")).isTrue();
  }

  @Test
  void aRemovedShardIsClosed() {
    ShardStore removed = store.shards().get(0);
    removed.createQueue("q");

    store.reconfigure(List.of(config("2", false)));

    assertThat(store.shards()).extracting(ShardStore::name).containsExactly("2");
    assertThat(store.shards().get(0).queueNames()).containsExactly("q");
    QueueException e = catchThrowableOfType(QueueException.class, removed::queueNames);
    assertThat(e.errorCode()).isEqualTo(ErrorCode.SHARD_CONNECTION_FAILED);
    assertThat(e.getMessage()).contains("removed from the configuration");
  }

  @Test
  void invalidListsAreRefusedAndChangeNothing() {
    assertThatThrownBy(() -> store.reconfigure(List.of()))
        .hasMessageContaining("at least one shard");
    assertThatThrownBy(() -> store.reconfigure(List.of(config("1", false), config("1", true))))
        .hasMessageContaining("'1' appears twice");
    assertThat(store.shards()).extracting(ShardStore::name).containsExactly("1");
  }

  private static RedisShardConfig config(String name, boolean dequeueOnly) {
    return new RedisShardConfig(
        name, RedisTestSupport.HOST, RedisTestSupport.PORT, 0, null, dequeueOnly);
  }
}
