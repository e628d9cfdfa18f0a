package dev.flipper.queue.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.JobState;
import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded H2 default uses AUTO_SERVER=TRUE so that several daemons on one machine share one
 * database file: the first opens it and serves it over TCP, the others connect to it.
 */
class H2AutoServerTest {
  static final String QUEUE = "shared_q";
  static final long NOW = 1_000_000L;

  @TempDir Path dir;

  @Test
  void twoStoresInOneProcessShareTheFile() {
    JdbcShardConfig config = TestDatabases.h2Shard("1", dir);
    try (JdbcQueueStore first =
            JdbcQueueStore.builder().shards(List.of(config)).poolSize(2).build();
        JdbcQueueStore second =
            JdbcQueueStore.builder().shards(List.of(config)).poolSize(2).build()) {
      first.shards().get(0).createQueue(QUEUE);
      first.shards().get(0).enqueue(QUEUE, List.of(job("from first")));

      List<StoredJob> claimed =
          second.shards().get(0).claim(QUEUE, 1, 10, new Claim("d", "second", NOW));

      assertThat(claimed)
          .extracting(j -> new String(j.body(), StandardCharsets.UTF_8))
          .containsExactly("from first");
      assertThat(first.shards().get(0).claim(QUEUE, 1, 10, new Claim("d", "first", NOW))).isEmpty();
    }
  }

  @Test
  @Tag("processes")
  void aSecondJvmClaimsWhatThisOneEnqueuedThroughTheAutoServer() throws Exception {
    JdbcShardConfig config = TestDatabases.h2Shard("1", dir);
    try (JdbcQueueStore store =
        JdbcQueueStore.builder().shards(List.of(config)).poolSize(2).build()) {
      ShardStore shard = store.shards().get(0);
      shard.createQueue(QUEUE);
      List<NewJobRecord> jobs = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        jobs.add(job("job" + i));
      }
      shard.enqueue(QUEUE, jobs);

      Process child =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  SecondProcess.class.getName(),
                  config.url())
              .redirectErrorStream(true)
              .start();
      boolean exited = child.waitFor(60, TimeUnit.SECONDS);
      String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!exited) {
        child.destroyForcibly();
      }

      assertThat(exited).as("child JVM finished; output:%n%s", output).isTrue();
      assertThat(child.exitValue()).as("child exit code; output:%n%s", output).isZero();
      assertThat(output).contains("claimed 50");
      assertThat(shard.count(QUEUE, 1, JobState.SUCCEEDED, false, BodyFilter.ALL, NOW, 1000))
          .isEqualTo(50);
      assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, NOW, 1000))
          .isEqualTo(5);
    }
  }

  static NewJobRecord job(String body) {
    return new NewJobRecord(1, body.getBytes(StandardCharsets.UTF_8), NOW - 1, 2, "", NOW - 1);
  }

  /** The other JVM: claims and acks every job, enqueues five, and says how many it claimed. */
  public static final class SecondProcess {
    public static void main(String[] args) {
      try (JdbcQueueStore store =
          JdbcQueueStore.builder()
              .shards(List.of(new JdbcShardConfig("1", args[0], "sa", "", false)))
              .poolSize(2)
              .build()) {
        ShardStore shard = store.shards().get(0);
        List<StoredJob> claimed = shard.claim(QUEUE, 1, 1000, new Claim("d", "child", NOW));
        shard.ackSucceeded(
            QUEUE,
            claimed.stream().map(j -> new AckRecord(new JobRef(1, j.localId()), "", 0)).toList(),
            NOW);
        shard.enqueue(QUEUE, List.of(job("a"), job("b"), job("c"), job("d"), job("e")));
        System.out.println("claimed " + claimed.size());
      }
    }
  }
}
