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
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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
    } finally {
      assertThat(runner.closeAll()).isTrue();
    }
  }
}
