package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flipper.config.ConfigLoader;
import dev.flipper.tls.TlsFolder;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.tokens.TokenLayout;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemons with {@code security.tls}: a real master, workers and scheduler in this JVM, each
 * presenting its own certificate from {@code flipper tls init}'s folder; the workers run an
 * operator's workflow but cannot change its definition.
 */
@Tag("processes")
class SecureModesTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int cli(List<String> options, String... command) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(options);
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return Launcher.execute(
        args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void workersRunAnOperatorsWorkflowOverTlsButCannotChangeDefinitions() throws Exception {
    TlsFolder folder = TlsFolder.init(dir.resolve("tls"), List.of(), Clock.systemUTC());
    ModeRunner runner =
        new ModeRunner(
            ConfigLoader.defaults(
                List.of(
                    "storage.jdbc.shards=[{name: '1', url: 'jdbc:h2:file:"
                        + dir.resolve("flipper")
                        + ";MODE=MySQL'}]",
                    "master.port=0",
                    "master.adminPort=0",
                    "scheduler.adminPort=0",
                    "workers.adminPort=0",
                    "workers.logDir=" + dir.resolve("logs"),
                    "security.tls=true",
                    "security.certificates=" + folder.dir()),
                Map.of()),
            new PrintWriter(new StringWriter()));
    runner.start(List.of(Mode.MASTER, Mode.SCHEDULER, Mode.WORKERS));
    int port = ((MasterDaemon) runner.running().get(0).daemon()).port();
    try (TokenMasterClient operator =
            TokenMasterClient.builder("localhost", port).tls(folder.identity("operator")).build();
        TokenMasterClient worker =
            TokenMasterClient.builder("localhost", port)
                .connectAttempts(1)
                .tls(folder.identity("workers"))
                .build()) {
      String instance = DemoWorkflows.applyAndStart(operator);

      WorkflowEngine engine = WorkflowEngine.builder(operator).build();
      await()
          .atMost(Duration.ofMinutes(1))
          .until(
              () ->
                  engine
                      .status()
                      .instance(DemoWorkflows.STARTED, instance)
                      .orElseThrow()
                      .summary()
                      .status(),
              status -> status == InstanceStatus.SUCCESS);
      assertThatThrownBy(
              () ->
                  worker.modify(
                      ModifyParams.updating(
                          Token.of(TokenLayout.definition(DemoWorkflows.STARTED), "{}"))))
          .hasMessageContaining("role worker may not write /definition/etl");

      // The commands present security.identity (default operator).
      List<String> tls =
          List.of(
              "--host",
              "localhost",
              "--set",
              "master.port=" + port,
              "--set",
              "security.tls=true",
              "--set",
              "security.certificates=" + folder.dir());
      assertThat(cli(tls, "workflow", "status", "-w", DemoWorkflows.STARTED)).isZero();
      assertThat(out.toString()).contains(instance).contains("SUCCESS");
      Path file = dir.resolve("hello.yaml");
      Files.writeString(file, "workflow: hello\njobs:\n  say:\n    command: echo hello\n");
      List<String> asWorkers = new ArrayList<>(tls);
      asWorkers.addAll(List.of("--set", "security.identity=workers"));
      assertThat(cli(asWorkers, "workflow", "apply", file.toString())).isEqualTo(1);
      assertThat(err.toString()).contains("role worker may not write /definition/hello");
      assertThat(cli(tls, "workflow", "apply", file.toString())).as(err.toString()).isZero();
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }
}
