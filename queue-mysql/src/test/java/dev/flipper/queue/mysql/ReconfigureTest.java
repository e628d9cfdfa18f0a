package dev.flipper.queue.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ShardStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Live reload of the shard list. */
class ReconfigureTest {
  private final TestDatabases databases = new TestDatabases();
  private JdbcQueueStore store;

  @TempDir Path dir;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
    databases.close();
  }

  private JdbcQueueStore open(List<JdbcShardConfig> shards) {
    store =
        JdbcQueueStore.builder()
            .shards(shards)
            .poolSize(3)
            .connectTimeout(Duration.ofSeconds(1))
            .build();
    return store;
  }

  @Test
  @Tag("mariadb")
  void anAddedShardGetsEveryQueueTheOthersHaveAndUnchangedShardsKeepTheirPool() {
    JdbcShardConfig one = TestDatabases.h2Shard("1", dir);
    JdbcShardConfig two = TestDatabases.mariaDbShard("2", databases.newMariaDb());
    open(List.of(one));
    ShardStore first = store.shards().get(0);
    first.createQueue("mail");
    first.createQueue("push");

    store.reconfigure(List.of(one, two));

    assertThat(store.shards()).extracting(ShardStore::name).containsExactly("1", "2");
    assertThat(store.shards().get(0)).isSameAs(first);
    assertThat(store.shards().get(1).queueNames()).containsExactlyInAnyOrder("mail", "push");
    assertThat(store.shards().get(1).enqueue("mail", List.of(job()))).hasSize(1);
  }

  @Test
  void flippingDequeueOnlyIsLiveAndKeepsTheShard() {
    JdbcShardConfig one = TestDatabases.h2Shard("1", dir);
    JdbcShardConfig two = TestDatabases.h2Shard("2", dir);
    open(List.of(one, two));
    ShardStore second = store.shards().get(1);
    assertThat(second.dequeueOnly()).isFalse();

    QueueService service = QueueService.builder(store).build();
    service.createQueue("mail");
    List<JobDescriptor> before = service.enqueue("mail", List.of(NewJob.of("x")));
    while (before.get(0).shard().equals("1")) { // until one job sits on shard 2
      before = service.enqueue("mail", List.of(NewJob.of("x")));
    }

    store.reconfigure(List.of(one, two.withDequeueOnly(true)));

    assertThat(store.shards().get(1)).isSameAs(second);
    assertThat(second.dequeueOnly()).isTrue();
    for (int i = 0; i < 30; i++) {
      assertThat(service.enqueue("mail", List.of(NewJob.of("y"))).get(0).shard()).isEqualTo("1");
    }
    assertThat(service.lookup(before, false)).containsKey(before.get(0)); // still served
    store.reconfigure(List.of(one, two));
    assertThat(second.dequeueOnly()).isFalse();
  }

  @Test
  void aRemovedShardLeavesTheListAndAChangedUrlGetsANewPool() {
    JdbcShardConfig one = TestDatabases.h2Shard("1", dir);
    JdbcShardConfig two = TestDatabases.h2Shard("2", dir);
    open(List.of(one, two));
    ShardStore first = store.shards().get(0);

    store.reconfigure(List.of(TestDatabases.h2Shard("1", dir.resolve("moved"))));

    assertThat(store.shards()).hasSize(1);
    assertThat(store.shards().get(0)).isNotSameAs(first);
    assertThat(store.shards().get(0).queueNames()).isEmpty();
  }

  @Test
  void anUnreachableNewShardDoesNotBreakTheOthers() {
    JdbcShardConfig one = TestDatabases.h2Shard("1", dir);
    open(List.of(one));
    store.shards().get(0).createQueue("mail");

    store.reconfigure(
        List.of(
            one,
            new JdbcShardConfig("dead", TestDatabases.unreachableMysqlUrl(), "root", "", false)));

    assertThat(store.shards()).extracting(ShardStore::name).containsExactly("1", "dead");
    assertThat(store.shards().get(1).healthy()).isFalse();
    assertThat(store.shards().get(0).healthy()).isTrue();
    assertThat(store.shards().get(0).enqueue("mail", List.of(job()))).hasSize(1);
  }

  private static NewJobRecord job() {
    return new NewJobRecord(1, new byte[] {1}, 0, 1, "", 0);
  }
}
