package dev.flipper.launcher.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.admin.AdminServer;
import dev.flipper.admin.LogEndpoint;
import dev.flipper.launcher.Launcher;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.server.TokenMasterServer;
import dev.flipper.workflow.worker.WorkerDaemon;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flipper workflow logs} against a master over Thrift and a worker that serves its logs over
 * HTTP, in this JVM: the last execution, a numbered one, stderr, and --follow while the job still
 * writes.
 */
class WorkflowLogsCommandTest {
  /** workers.maxLogBytes of the worker: 2 KiB, far below what the job "loud" writes. */
  private static final long CAP = 2048;

  @TempDir Path dir;
  private TokenMasterServer server;
  private WorkerDaemon workers;
  private AdminServer admin;
  private WorkflowEngine engine;
  private String out;
  private String err;

  @BeforeEach
  void start() throws Exception {
    TokenService service = TokenService.builder(InMemoryTokenStore.create()).build();
    server = TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
    engine = WorkflowEngine.builder(service).build();
    WorkerDaemon.Config config =
        new WorkerDaemon.Config(
                1,
                Duration.ofSeconds(10),
                Duration.ofHours(12),
                Duration.ofSeconds(1),
                dir.resolve("logs").toString(),
                "",
                "",
                "127.0.0.1")
            .withLogLimits(CAP, 0, 0);
    workers = new WorkerDaemon(config, service, new MetricRegistry());
    admin =
        new AdminServer(
            "workers",
            "127.0.0.1",
            0,
            new MetricRegistry(),
            () -> Map.of("workers", true),
            List.of(new LogEndpoint(workers.logFiles()).route()));
    admin.start();
    workers.serveLogsAt(() -> "http://127.0.0.1:" + admin.port()).start();
  }

  @AfterEach
  void stop() {
    workers.close();
    admin.close();
    server.close();
  }

  private int logs(String... args) {
    StringWriter outText = new StringWriter();
    StringWriter errText = new StringWriter();
    List<String> full = new ArrayList<>(List.of("workflow", "logs"));
    full.addAll(List.of(args));
    full.addAll(List.of("--set", "master.port=" + server.port(), "--host", "127.0.0.1"));
    int code =
        Launcher.execute(
            full.toArray(String[]::new), new PrintWriter(outText), new PrintWriter(errText));
    out = outText.toString();
    err = errText.toString();
    return code;
  }

  @Test
  @Tag("slow")
  void followPrintsWhatTheJobWritesUntilItEndsAndOtherExecutionsAndStderrAreThere() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("talk")
                    .job(
                        JobDefinition.builder("chatty")
                            .maxAttempts(2)
                            .command(
                                "for i in 1 2 3; do echo line$i; sleep 0.3; done; echo oops >&2; [ \"$FLIPPER_ATTEMPT\" = 2 ]"))
                    .build()));
    String instance = engine.instances().start("talk");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                engine
                    .status()
                    .instance("talk", instance)
                    .orElseThrow()
                    .job("chatty")
                    .flatMap(JobDetail::lastExecution)
                    .map(ExecutionDetail::running)
                    .orElse(false));

    assertThat(logs("-w", "talk", "-i", instance, "-j", "chatty", "--follow")).as(err).isZero();
    assertThat(out).isEqualTo("line1\nline2\nline3\n");

    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                engine.status().instance("talk", instance).orElseThrow().summary().status()
                    == InstanceStatus.SUCCESS);
    assertThat(logs("-w", "talk", "-i", instance, "-j", "chatty", "-e", "1", "--stderr"))
        .as(err)
        .isZero();
    assertThat(out).isEqualTo("oops\n");
    assertThat(logs("-w", "talk", "-i", instance, "-j", "chatty")).as(err).isZero();
    assertThat(out).isEqualTo("line1\nline2\nline3\n");
    assertThat(logs("-w", "talk", "-i", instance, "-j", "chatty", "-e", "9")).isEqualTo(1);
    assertThat(err).contains("no execution 9 of talk/" + instance + "/chatty; executions: [1, 2]");
    assertThat(logs("-w", "talk", "-i", instance, "-j", "nope")).isEqualTo(1);
    assertThat(err).contains("no job 'nope'");
  }

  /**
   * Issue #26: logs -f of a job that had not started failed with "has not run yet"; it waits for
   * the start now, then follows. The worker's cut of a log over workers.maxLogBytes is said on
   * stderr.
   */
  @Test
  @Tag("slow")
  void followWaitsForAJobThatHasNotStartedAndACutLogIsSaidToBeCut() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("later")
                    .job(JobDefinition.builder("first").command("sleep 2"))
                    .job(
                        JobDefinition.builder("loud")
                            .needs("first")
                            .command("seq -f 'line %04g' 1 1000"))
                    .build()));
    String instance = engine.instances().start("later");

    assertThat(logs("-w", "later", "-i", instance, "-j", "loud", "-f")).as(err).isZero();

    StringBuilder all = new StringBuilder();
    for (int i = 1; i <= 1000; i++) {
      all.append(String.format("line %04d\n", i));
    }
    String written = all.toString();
    String kept =
        written.substring(0, (int) CAP / 2)
            + "\n--- flipper: 7,952 bytes cut here (workers.maxLogBytes = 2 KiB) ---\n"
            + written.substring(written.length() - (int) CAP / 2);
    assertThat(out).isEqualTo(kept);
    assertThat(err)
        .isEqualTo(
            "waiting for job later/"
                + instance
                + "/loud to start…\n"
                + "flipper: the worker cut 7952 bytes out of the middle of this log (workers.maxLogBytes); "
                + "they are gone where the '--- flipper: … bytes cut here ---' line is\n");

    assertThat(logs("-w", "later", "-i", instance, "-j", "loud")).as(err).isZero();
    assertThat(out).isEqualTo(kept);
    assertThat(err).contains("flipper: the worker cut 7952 bytes");
  }
}
