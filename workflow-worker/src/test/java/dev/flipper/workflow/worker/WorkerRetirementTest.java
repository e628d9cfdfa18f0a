package dev.flipper.workflow.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.fleet.ExitSignal;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heartbeats and retirement on an EXIT signal, in-process on an in-memory master with real shell
 * jobs.
 */
@Tag("processes")
class WorkerRetirementTest {
  private final TokenService master = TokenService.builder(InMemoryTokenStore.create()).build();
  private final WorkflowEngine engine = WorkflowEngine.builder(master).build();
  private final Heartbeats heartbeats = new Heartbeats(master);
  @TempDir Path dir;
  private WorkerDaemon daemon;

  @AfterEach
  void stop() {
    if (daemon != null) {
      daemon.close();
    }
  }

  private WorkerDaemon daemon(int generation) {
    WorkerDaemon.Config config =
        new WorkerDaemon.Config(
            2,
            Duration.ofSeconds(3),
            Duration.ofHours(12),
            Duration.ofSeconds(5),
            dir.resolve("logs").toString(),
            "",
            "127.0.0.1",
            "127.0.0.1",
            generation,
            Duration.ofMillis(100));
    daemon =
        new WorkerDaemon(config, master, new MetricRegistry())
            .serveLogsAt(() -> "http://127.0.0.1:1");
    return daemon;
  }

  private String start(String workflow, String command) {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder(workflow)
                    .job(JobDefinition.builder("only").command(command))
                    .build()));
    return engine.instances().start(workflow);
  }

  @Test
  void theHeartbeatShowsTheRunningJobAndGoesAtAStop() {
    Path go = dir.resolve("go");
    daemon(3).start();
    String instance = start("hold", "while [ ! -f " + go + " ]; do sleep 0.05; done");

    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                heartbeats.list().stream()
                    .anyMatch(h -> h.running().contains("hold/" + instance + "/only")));
    Heartbeat beat = heartbeats.list().get(0);
    assertThat(beat.generation()).isEqualTo(3);
    assertThat(beat.slots()).isEqualTo(2);
    assertThat(beat.adminUrl()).contains("http://127.0.0.1:1");
    assertThat(beat.deadAfter()).isEqualTo(Duration.ofMillis(300));
    assertThat(beat.name()).matches(".+-" + ProcessHandle.current().pid() + "-[0-9a-f]{6}");

    daemon.close();
    assertThat(heartbeats.list()).isEmpty();
  }

  @Test
  void anExitForANewerGenerationLetsTheRunningJobFinishThenRetires() throws Exception {
    Path go = dir.resolve("go");
    CountDownLatch retired = new CountDownLatch(1);
    daemon(1).onRetired(retired::countDown).start();
    String instance = start("hold", "while [ ! -f " + go + " ]; do sleep 0.05; done");
    await().atMost(Duration.ofSeconds(20)).until(() -> daemon.busy() == 1);

    new ExitSignal(master, Clock.systemUTC()).set(2);
    await().atMost(Duration.ofSeconds(20)).until(() -> heartbeats.list().get(0).retiring());
    String later = start("later", "true");
    Files.createFile(go);

    assertThat(retired.await(20, TimeUnit.SECONDS)).as("retired after its job").isTrue();
    assertThat(daemon.isReady()).as("takes no more work").isFalse();
    var held = engine.status().instance("hold", instance).orElseThrow();
    assertThat(held.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(held.job("only").orElseThrow().executions())
        .extracting(ExecutionDetail::exitCode)
        .containsExactly(0);
    assertThat(
            engine
                .status()
                .instance("later", later)
                .orElseThrow()
                .job("only")
                .orElseThrow()
                .executions())
        .as("a retiring worker starts nothing new")
        .isEmpty();
  }

  @Test
  void anExitForItsOwnGenerationIsIgnored() {
    daemon(2).start();
    new ExitSignal(master, Clock.systemUTC()).set(2);
    String instance = start("quick", "true");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                engine.status().instance("quick", instance).orElseThrow().summary().status()
                    == InstanceStatus.SUCCESS);
    assertThat(heartbeats.list().get(0).retiring()).isFalse();
  }
}
