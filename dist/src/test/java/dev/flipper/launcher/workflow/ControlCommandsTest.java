package dev.flipper.launcher.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control commands against a real master over Thrift on an ephemeral port, its tokens in an H2
 * file. The CLI's config names a database nobody can open: the commands (archived retry and cleanup
 * too) go through the master only. A test thread plays the worker.
 */
class ControlCommandsTest {
  @TempDir Path dir;

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
    TokenService service = TokenService.builder(store).build();
    server = TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
    engine = WorkflowEngine.builder(service).build();
    config = dir.resolve("flipper.yaml");
    Files.writeString(config, "master:\n  jdbcUrl: \"jdbc:mysql://127.0.0.1:1/not_for_the_cli\"\n");
  }

  @AfterEach
  void stop() {
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

  private String start() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("wf")
                    .job(JobDefinition.builder("a").command("true"))
                    .job(JobDefinition.builder("b").command("true").needs("a"))
                    .build()));
    return engine.instances().start("wf");
  }

  @Test
  void drainPrintsWhatChangedAndNothingTheSecondTime() {
    start();
    assertThat(run("drain", "-w", "wf")).as(err).isZero();
    assertThat(out)
        .isEqualTo(
            "drain workflow wf: 1 change\n  added /signal/workflow/wf/DRAIN: DRAIN signal set\n");
    assertThat(run("drain", "-w", "wf")).as(err).isZero();
    assertThat(out)
        .startsWith(
            "drain workflow wf: nothing changed\n  note: DRAIN is already set at workflow wf");
  }

  @Test
  void pauseWithJsonAndUsageErrors() throws Exception {
    String inst = start();
    assertThat(run("pause", "-w", "wf", "-i", inst, "--json")).as(err).isZero();
    JsonNode json = new ObjectMapper().readTree(out);
    assertThat(json.get("operation").asText()).isEqualTo("pause");
    assertThat(json.get("changed").asBoolean()).isTrue();
    assertThat(json.get("changes").get(0).get("token").asText())
        .isEqualTo("/signal/instance/wf/" + inst + "/PAUSE");

    assertThat(run("pause", "-w", "wf")).isEqualTo(2);
    assertThat(err).contains("pause needs -w WF -i ID");
    assertThat(run("redo", "-w", "wf", "-i", inst, "-j", "a")).isEqualTo(2);
    assertThat(err).contains("redo needs -w WF -i ID -j JOB -e N");
    assertThat(run("poison", "-w", "wf", "--force")).isEqualTo(2);
    assertThat(err).contains("poison needs -w WF [-i ID] -j JOB[,JOB...]");
    assertThat(run("poison", "-i", inst, "-j", "a", "--force")).isEqualTo(2);
  }

  @Test
  void destructiveOperationsNeedForceWithoutATerminal() {
    String inst = start();
    assertThat(run("stop", "-w", "wf", "-i", inst)).isEqualTo(1);
    assertThat(err).contains("stop changes running workflows and needs a confirmation", "--force");
    assertThat(engine.status().instance("wf", inst)).isPresent();

    assertThat(run("stop", "-w", "wf", "-i", inst, "--force")).as(err).isZero();
    assertThat(out).startsWith("stop instance wf/" + inst + ": 3 changes");
    assertThat(engine.status().instance("wf", inst)).isEmpty();
  }

  @Test
  void refusalsAreOneLineWithExitCodeOne() {
    String inst = start();
    ClaimedJob a = engine.claim("w1", Duration.ofMinutes(5)).orElseThrow();
    assertThat(run("disable", "-w", "wf", "-i", inst, "-j", "a", "--force")).isEqualTo(1);
    assertThat(err)
        .startsWith("flipper: disable refused: job a of instance wf/" + inst + " is running");
    assertThat(run("pause", "-w", "wf", "-i", "nope")).isEqualTo(1);
    assertThat(err).contains("no active instance wf/nope");
    engine.release(a);
  }

  @Test
  void retryOfAnArchivedInstanceAndCleanupGoThroughTheMaster() {
    String inst = start();
    ClaimedJob a = engine.claim("w1", Duration.ofMinutes(5)).orElseThrow();
    engine.start(a, new ExecutionStart("true", "h", Map.of("stdout", "http://h/a.log")));
    engine.finish(a, ExecutionResult.exit(1, Map.of()));
    assertThat(run("archive", "-w", "wf", "-i", inst)).as(err).isZero();
    assertThat(engine.archiveDue()).isEqualTo(1);

    assertThat(run("retry", "-w", "wf", "-i", inst)).as(err).isZero();
    String copy =
        out.lines()
            .filter(l -> l.startsWith("  instance "))
            .findFirst()
            .orElseThrow()
            .substring(11);
    assertThat(engine.status().instance("wf", copy).orElseThrow().summary().status())
        .isEqualTo(InstanceStatus.RUNNING);

    assertThat(run("cleanup", "--age", "3", "--force")).isEqualTo(1);
    assertThat(err).contains("use at least 7d");
    assertThat(run("cleanup", "--force")).as(err).isZero();
    assertThat(out).startsWith("cleanup global: nothing changed");
  }
}
