package dev.flipper.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.server.QueueServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs every example as a user would, and checks what it did. */
class ExamplesTest {
  @TempDir Path dataDir;

  @Test
  void embeddedExampleRunsTheDueJobsAndLeavesTheDelayedOnePending() throws Exception {
    Map<?, JobInfo> states = EmbeddedQueueExample.run(dataDir);

    assertThat(states.values())
        .extracting(JobInfo::state)
        .containsExactly(JobState.SUCCEEDED, JobState.SUCCEEDED, JobState.PENDING);
  }

  @Test
  void wordCountWorkerCountsEverySentenceAndRetriesTheFailedOnes() throws Exception {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2");
    try (QueueServer server =
        QueueServer.builder(QueueService.builder(store).build()).port(0).build().start()) {
      Map<String, Integer> counts = WordCountWorkerExample.run("127.0.0.1", server.port(), 30);

      assertThat(counts).hasSize(30);
      assertThat(counts.get("sentence number 3 has some some some words")).isEqualTo(8);
      assertThat(List.copyOf(counts.values())).allSatisfy(n -> assertThat(n).isBetween(5, 9));
    }
  }
}
