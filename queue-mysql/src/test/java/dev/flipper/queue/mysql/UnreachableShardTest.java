package dev.flipper.queue.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ShardStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shard whose server refuses connections is reported unhealthy and fails fast; the others serve.
 */
@Tag("slow")
class UnreachableShardTest {
  private JdbcQueueStore store;
  private ShardStore good;
  private ShardStore dead;

  @TempDir Path dir;

  @BeforeEach
  void open() {
    store =
        JdbcQueueStore.builder()
            .shards(
                List.of(
                    TestDatabases.h2Shard("good", dir),
                    new JdbcShardConfig(
                        "dead", TestDatabases.unreachableMysqlUrl(), "root", "", false)))
            .poolSize(2)
            .connectTimeout(
                Duration.ofSeconds(2)) // H2 may need a second to open a new file on a busy machine
            .unhealthyCooldown(Duration.ofSeconds(1))
            .build();
    good = store.shards().get(0);
    dead = store.shards().get(1);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void theStoreStartsWithTheDeadShardMarkedUnhealthy() {
    assertThat(good.healthy()).isTrue();
    assertThat(dead.healthy()).isFalse();

    good.createQueue("mail");
    assertThat(good.enqueue("mail", List.of(new NewJobRecord(1, new byte[0], 0, 1, "", 0))))
        .hasSize(1);
  }

  @Test
  void theServiceServesEverythingFromTheLiveShard() {
    good.createQueue("mail");
    QueueService service = QueueService.builder(store).build();

    List<JobDescriptor> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ids.addAll(service.enqueue("mail", List.of(NewJob.of("job" + i))));
    }
    List<DequeuedJob> claimed = service.dequeue(DequeueParams.of("mail", 100, "worker"));
    service.ack(
        new AckParams(
            "mail",
            claimed.stream().map(j -> AckParams.Item.of(j.descriptor())).toList(),
            List.of()));

    assertThat(ids).extracting(JobDescriptor::shard).containsOnly("good");
    assertThat(claimed)
        .extracting(DequeuedJob::descriptor)
        .containsExactlyInAnyOrderElementsOf(ids);
    assertThat(service.count(CountParams.of("mail", JobState.SUCCEEDED))).isEqualTo(10);
    assertThat(service.queueNames()).contains("mail");
  }

  @Test
  void callsToTheDeadShardFailFastNamingTheShardAndRetryAfterTheCoolDown() {
    QueueException e = catchThrowableOfType(QueueException.class, () -> dead.createQueue("mail"));

    assertThat(e.errorCode()).isEqualTo(ErrorCode.SHARD_CONNECTION_FAILED);
    assertThat(e.getMessage()).contains("shard 'dead'").contains("127.0.0.1");
    assertThat(e.getMessage())
        .contains("not attempted"); // failed fast: the breaker is open after start-up

    Awaitility.await().atMost(Duration.ofSeconds(5)).until(dead::healthy);
    e = catchThrowableOfType(QueueException.class, () -> dead.queueNames());
    assertThat(e.errorCode()).isEqualTo(ErrorCode.SHARD_CONNECTION_FAILED);
    assertThat(e.getMessage()).contains("could not be reached");
    assertThat(dead.healthy()).isFalse();
  }
}
