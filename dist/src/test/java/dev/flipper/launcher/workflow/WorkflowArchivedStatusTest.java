package dev.flipper.launcher.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flipper workflow status} shows archived instances, which the master serves (its tokens in
 * an H2 file, served over Thrift on an ephemeral port by this JVM). The CLI's config names a
 * database nobody can open: the archive comes through the master only.
 */
class WorkflowArchivedStatusTest {
  @TempDir Path dir;

  /** The master's and the engine's time, moved by the test. */
  private static final class TestClock extends Clock {
    volatile Instant now = Instant.parse("2026-11-24T04:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  private final TestClock clock = new TestClock();

  private JdbcTokenStore store;
  private TokenMasterServer server;
  private WorkflowEngine engine;
  private Path config;
  private String out;
  private String err;

  @BeforeEach
  void master() throws Exception {
    String url =
        "jdbc:h2:file:" + dir.resolve("tokens").toAbsolutePath() + ";MODE=MySQL;AUTO_SERVER=TRUE";
    store = JdbcTokenStore.open(JdbcTokenStoreConfig.of(url, "", ""));
    TokenService service = TokenService.builder(store).clock(clock).build();
    server = TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
    engine = WorkflowEngine.builder(service).clock(clock).archiveDelay(Duration.ZERO).build();
    config = dir.resolve("flipper.yaml");
    Files.writeString(config, "master:\n  jdbcUrl: \"jdbc:mysql://127.0.0.1:1/not_for_the_cli\"\n");
  }

  @AfterEach
  void stop() {
    server.close();
    store.close();
  }

  private int run(String... args) {
    CommandRun run = CommandRun.of(config, server.port(), args);
    out = run.out();
    err = run.err();
    return run.code();
  }

  /**
   * Runs every job of the instance with exit 0, except {@code failing}; logs at {@code
   * logBase}/job.
   */
  private void runJobs(String failing, String logBase) {
    for (int i = 0; i < 4; i++) {
      engine
          .claim("w", Duration.ofMinutes(1))
          .ifPresent(
              job -> {
                engine.start(
                    job,
                    new ExecutionStart(
                        job.command(), "h", Map.of("stdout", logBase + "/" + job.job())));
                engine.finish(job, ExecutionResult.exit(job.job().equals(failing) ? 4 : 0));
              });
    }
  }

  @Test
  void statusShowsArchivedInstancesBesideActiveOnes() throws Exception {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("arch")
                    .job(JobDefinition.builder("a").command("run a"))
                    .job(JobDefinition.builder("b").needs("a").command("run b"))
                    .build()));
    String done = engine.instances().start("arch");
    runJobs("b", "http://w");
    clock.now = clock.now.plusSeconds(2); // the archive token's lease ends at the next whole second
    assertThat(engine.archiveDue()).isEqualTo(1);
    String running = engine.instances().start("arch");

    assertThat(run("workflow", "status", "-w", "arch")).as(err).isZero();
    assertThat(out).startsWith("INSTANCE").contains("ARCHIVED");
    assertThat(out.lines().filter(l -> l.startsWith(done)).findFirst().orElseThrow())
        .contains("FAILURE")
        .contains(" yes ")
        .endsWith(" b");
    assertThat(out.lines().filter(l -> l.startsWith(running)).findFirst().orElseThrow())
        .contains("RUNNING")
        .contains(" no ");

    assertThat(run("workflow", "status", "-w", "arch", "--json")).as(err).isZero();
    JsonNode instances = new ObjectMapper().readTree(out).get("instances");
    assertThat(instances).hasSize(2);
    assertThat(instances.get(0).get("instance").asText()).isEqualTo(done);
    assertThat(instances.get(0).get("archived").asBoolean()).isTrue();
    assertThat(instances.get(1).get("archived").asBoolean()).isFalse();

    assertThat(run("workflow", "status", "-w", "arch", "-i", done)).as(err).isZero();
    assertThat(out)
        .contains("instance " + done + ": FAILURE")
        .contains(", archived)")
        .contains("stdout=http://w/b");
    assertThat(run("workflow", "status", "-w", "arch", "-i", done, "--json")).as(err).isZero();
    JsonNode detail = new ObjectMapper().readTree(out);
    assertThat(detail.get("archived").asBoolean()).isTrue();
    assertThat(detail.get("jobs").get(1).get("executions").get(0).get("exitCode").asInt())
        .isEqualTo(4);

    assertThat(run("workflow", "status", "-w", "arch", "-i", done, "--active")).isEqualTo(1);
    assertThat(err).contains("no instance arch/" + done + " active (--active)");
    assertThat(run("workflow", "status", "-w", "arch", "--active")).as(err).isZero();
    assertThat(out).doesNotContain(done).contains(running);
  }

  @Test
  void logsOfAnArchivedInstanceAreFoundThroughItsRecords() throws Exception {
    HttpServer worker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    worker.createContext(
        "/logs/",
        exchange -> {
          byte[] body =
              ("log of " + exchange.getRequestURI().getPath() + "\n")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    worker.start();
    try (TokenMasterClient beating =
        TokenMasterClient.builder("127.0.0.1", server.port()).build()) {
      // Logs are fetched only from a worker whose heartbeat came through the master.
      new Heartbeats(beating)
          .beat(
              new Heartbeat(
                  "none",
                  "127.0.0.1",
                  Optional.of("http://127.0.0.1:" + worker.getAddress().getPort()),
                  1,
                  1,
                  List.of(),
                  false,
                  clock.now,
                  clock.now,
                  Duration.ofDays(1)));
      engine
          .definitions()
          .apply(
              List.of(
                  WorkflowDefinition.builder("old")
                      .job(JobDefinition.builder("a").command("run a"))
                      .build()));
      String done = engine.instances().start("old");
      runJobs("none", "http://127.0.0.1:" + worker.getAddress().getPort() + "/logs");
      clock.now = clock.now.plusSeconds(2);
      assertThat(engine.archiveDue()).isEqualTo(1);

      assertThat(run("workflow", "logs", "-w", "old", "-i", done, "-j", "a")).as(err).isZero();
      assertThat(out).isEqualTo("log of /logs/a\n");
    } finally {
      worker.stop(0);
    }
  }
}
