package dev.flipper.launcher.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #25: tokens that do not parse, written straight into a master (H2 store, Thrift on an
 * ephemeral port) through its Thrift API, are printed as {@code DAMAGED <name>: <reason>} by {@code
 * flipper workflow status} and {@code workers}, which exit 0; {@code --json} carries them with a
 * {@code damaged} field; retry of a damaged instance fails naming its token.
 */
class DamagedTokensCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DEFINITION = "/definition/nightly";
  private static final String WORKER = "/worker/host-9-1-broken";

  @TempDir Path dir;

  private JdbcTokenStore store;
  private TokenMasterServer server;
  private TokenMasterClient client;
  private WorkflowEngine engine;
  private Path config;
  private String good;
  private String damaged;
  private String record;
  private String brokenJob;
  private String out;
  private String err;

  @BeforeEach
  void master() throws Exception {
    String url =
        "jdbc:h2:file:" + dir.resolve("tokens").toAbsolutePath() + ";MODE=MySQL;AUTO_SERVER=TRUE";
    store = JdbcTokenStore.open(JdbcTokenStoreConfig.of(url, "", ""));
    server =
        TokenMasterServer.builder(TokenService.builder(store).build())
            .port(0)
            .bindHost("127.0.0.1")
            .build()
            .start();
    client = TokenMasterClient.builder("127.0.0.1", server.port()).build();
    engine = WorkflowEngine.builder(client).build();
    config = dir.resolve("flipper.yaml");
    Files.writeString(config, "master:\n  jdbcUrl: \"jdbc:mysql://127.0.0.1:1/not_for_the_cli\"\n");
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("etl")
                    .job(JobDefinition.builder("a").command("true"))
                    .build()));
    good = engine.instances().start("etl");
    damaged = engine.instances().start("etl");
    record = "/workflow/etl/" + damaged + "/instance";
    brokenJob = "/workflow/etl/" + good + "/job/waiting/broken";
    Token stored = client.query(Query.prefix(record)).get(0);
    ObjectNode data = (ObjectNode) JSON.readTree(stored.data());
    data.put("status", "HIBERNATING");
    new Heartbeats(client)
        .beat(
            new Heartbeat(
                "host-1-1-good",
                "host-1",
                Optional.empty(),
                1,
                2,
                List.of(),
                false,
                Instant.now(),
                Instant.now(),
                Duration.ofMinutes(1)));
    client.modify(
        new ModifyParams(
            List.of(
                stored.withData(data.toString()),
                Token.of(DEFINITION, "{\"yaml\": 42"),
                Token.of(WORKER, "{\"name\": \"host-9-1-broken\", \"slots\": "),
                Token.of(brokenJob, "not json at all")),
            List.of()));
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
    store.close();
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

  @Test
  void statusListsTheWorkflowsAndEveryDamagedToken() throws Exception {
    assertThat(run("status")).as(err).isZero();
    assertThat(out.lines().toList())
        .anyMatch(l -> l.startsWith("etl "))
        .contains("DAMAGED " + record + ": unknown status HIBERNATING")
        .anyMatch(l -> l.startsWith("DAMAGED " + DEFINITION + ": not DefinitionData JSON"));

    assertThat(run("status", "--json")).as(err).isZero();
    JsonNode workflows = JSON.readTree(out).get("workflows");
    assertThat(workflows.get(0).get("name").asText()).isEqualTo("etl");
    assertThat(damagedEntries(workflows))
        .contains(record + ": unknown status HIBERNATING")
        .anyMatch(e -> e.startsWith(DEFINITION + ": not DefinitionData JSON"));
  }

  @Test
  void statusOfTheWorkflowAndOfItsInstancesShowsTheirDamage() throws Exception {
    assertThat(run("status", "-w", "etl", "--active")).as(err).isZero();
    assertThat(out.lines().toList())
        .anyMatch(l -> l.startsWith(good + " "))
        .contains("DAMAGED " + record + ": unknown status HIBERNATING");
    assertThat(run("status", "-w", "etl", "--active", "--json")).as(err).isZero();
    assertThat(damagedEntries(JSON.readTree(out).get("instances")))
        .containsExactly(record + ": unknown status HIBERNATING");

    assertThat(run("status", "-w", "etl", "-i", damaged, "--active")).as(err).isZero();
    assertThat(out).isEqualTo("DAMAGED " + record + ": unknown status HIBERNATING\n");
    assertThat(run("status", "-w", "etl", "-i", damaged, "--active", "--json")).as(err).isZero();
    assertThat(JSON.readTree(out).get("damaged").asText()).isEqualTo("unknown status HIBERNATING");

    assertThat(run("status", "-w", "etl", "-i", good, "--active")).as(err).isZero();
    assertThat(out.lines().toList())
        .anyMatch(l -> l.startsWith("a "))
        .anyMatch(l -> l.startsWith("DAMAGED " + brokenJob + ": not JobData JSON"));
    assertThat(run("status", "-w", "etl", "-i", good, "--active", "--json")).as(err).isZero();
    assertThat(damagedEntries(JSON.readTree(out).get("jobs")))
        .singleElement()
        .satisfies(e -> assertThat(e).startsWith(brokenJob + ": not JobData JSON"));
  }

  @Test
  void workersListsTheGoodHeartbeatAndTheDamagedOne() throws Exception {
    assertThat(run("workers")).as(err).isZero();
    assertThat(out.lines().toList())
        .anyMatch(l -> l.startsWith("host-1-1-good "))
        .anyMatch(l -> l.startsWith("DAMAGED " + WORKER + ": not HeartbeatData JSON"));

    assertThat(run("workers", "--json")).as(err).isZero();
    JsonNode workers = JSON.readTree(out).get("workers");
    assertThat(workers.get(0).get("name").asText()).isEqualTo("host-1-1-good");
    assertThat(damagedEntries(workers))
        .singleElement()
        .satisfies(e -> assertThat(e).startsWith(WORKER + ": not HeartbeatData JSON"));
  }

  @Test
  void retryOfADamagedInstanceFailsNamingItsToken() {
    assertThat(run("retry", "-w", "etl", "-i", damaged, "--force")).isEqualTo(1);
    assertThat(err).contains(record + " is damaged: unknown status HIBERNATING");
  }

  /** {@code token: damaged} of the entries that have a {@code damaged} field. */
  private static List<String> damagedEntries(JsonNode list) {
    List<String> entries = new ArrayList<>();
    list.forEach(
        e -> {
          if (e.has("damaged")) {
            entries.add(e.get("token").asText() + ": " + e.get("damaged").asText());
          }
        });
    return entries;
  }
}
