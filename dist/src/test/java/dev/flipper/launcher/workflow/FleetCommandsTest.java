package dev.flipper.launcher.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.fleet.ExitSignal;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flipper workflow workers|exit|unexit|explain} against a real master over Thrift on an
 * ephemeral port; the heartbeats are written by the test as workers write them.
 */
class FleetCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private TokenMasterServer server;
  private TokenService service;
  private Path config;
  private String out;
  private String err;

  @BeforeEach
  void master() throws Exception {
    service = TokenService.builder(InMemoryTokenStore.create()).build();
    server = TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
    config = dir.resolve("flipper.yaml");
    Files.writeString(config, "workers:\n  generation: 3\n");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private int run(String... args) {
    String[] full = new String[args.length + 1];
    full[0] = "workflow";
    System.arraycopy(args, 0, full, 1, args.length);
    CommandRun run = CommandRun.of(config, server.port(), full);
    out = run.out();
    err = run.err();
    return run.code();
  }

  private void beat(String name, int generation, Duration age, List<String> running) {
    new Heartbeats(service)
        .beat(
            new Heartbeat(
                name,
                "h-" + name,
                Optional.empty(),
                generation,
                2,
                running,
                false,
                Instant.now().minusSeconds(3600),
                Instant.now().minus(age),
                Duration.ofSeconds(15)));
  }

  @Test
  void workersListsAliveAndDeadAndForgetsTheDead() throws Exception {
    assertThat(run("workers")).as(err).isZero();
    assertThat(out).isEqualTo("no worker has published a heartbeat\n");

    beat("w-alive", 1, Duration.ZERO, List.of("etl/1/a"));
    beat("w-dead", 1, Duration.ofMinutes(5), List.of());
    assertThat(run("workers")).as(err).isZero();
    assertThat(out.lines().toList()).hasSize(3);
    assertThat(out.lines().filter(l -> l.startsWith("w-alive")).findFirst().orElseThrow())
        .contains("h-w-alive", " 1/2 ", "alive", "etl/1/a");
    assertThat(out.lines().filter(l -> l.startsWith("w-dead")).findFirst().orElseThrow())
        .contains("dead");

    assertThat(run("workers", "--json", "--forget-dead")).as(err).isZero();
    JsonNode json = JSON.readTree(out);
    assertThat(json.get("forgotten").get(0).asText()).isEqualTo("w-dead");
    assertThat(json.get("workers")).hasSize(1);
    assertThat(json.get("workers").get(0).get("state").asText()).isEqualTo("alive");
    assertThat(json.get("workers").get(0).get("running").get(0).asText()).isEqualTo("etl/1/a");
  }

  @Test
  void exitTakesTheConfiguredGenerationAndUnexitRemovesIt() throws Exception {
    beat("old", 2, Duration.ZERO, List.of());
    assertThat(run("exit", "--force", "--json")).as(err).isZero();
    JsonNode exit = JSON.readTree(out);
    assertThat(exit.get("exitGeneration").asInt()).isEqualTo(3);
    assertThat(exit.get("aliveWorkersRetiring").asInt()).isEqualTo(1);
    assertThat(err).contains("warning: no alive worker takes work");
    assertThat(new ExitSignal(service, Clock.systemUTC()).generation()).contains(3);
    assertThat(run("workers")).isZero();
    assertThat(out)
        .startsWith("EXIT signal: workers older than generation 3 finish their jobs and exit");

    assertThat(run("exit", "--generation", "0", "--force")).isEqualTo(2);
    assertThat(err).contains("--generation is 0; generations start at 1");
    assertThat(new ExitSignal(service, Clock.systemUTC()).generation()).contains(3);

    assertThat(run("unexit", "--force", "--json")).as(err).isZero();
    assertThat(JSON.readTree(out).get("changed").asBoolean()).isTrue();
    assertThat(run("unexit", "--force")).isZero();
    assertThat(out)
        .isEqualTo(
            "unchanged: EXIT signal none\nalive workers: 0 retiring (they exit after their current "
                + "jobs), 1 working\n");
  }

  @Test
  void explainPrintsTheReasonAndItsJobsOrJson() throws Exception {
    WorkflowEngine engine = WorkflowEngine.builder(service).build();
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("etl")
                    .job(JobDefinition.builder("a").command("true"))
                    .job(JobDefinition.builder("b").command("true").needs("a"))
                    .build()));
    String id = engine.instances().start("etl");

    assertThat(run("explain", "-w", "etl", "-i", id)).as(err).isZero();
    assertThat(out)
        .isEqualTo(
            "etl/"
                + id
                + ": NO_WORKER_ALIVE\n"
                + "  no worker is alive: no worker has published a heartbeat. Start workers (flipper -m workers).\n"
                + "  etl/"
                + id
                + "/a: NO_WORKER_ALIVE\n"
                + "    no worker is alive: no worker has published a heartbeat. Start workers (flipper -m workers).\n"
                + "  etl/"
                + id
                + "/b: WAITING_FOR_PARENTS\n"
                + "    waiting for parent a (runnable, not started).\n");

    assertThat(run("explain", "-w", "etl", "-i", id, "-j", "b", "--json")).as(err).isZero();
    JsonNode json = JSON.readTree(out);
    assertThat(json.get("reason").asText()).isEqualTo("WAITING_FOR_PARENTS");
    assertThat(json.get("subject").asText()).isEqualTo("etl/" + id + "/b");

    assertThat(run("explain", "-w", "etl", "-i", "42")).isEqualTo(1);
    assertThat(run("explain", "-w", "etl", "-j", "b")).isEqualTo(2);
    assertThat(err).contains("-j JOB needs -i ID");
  }
}
