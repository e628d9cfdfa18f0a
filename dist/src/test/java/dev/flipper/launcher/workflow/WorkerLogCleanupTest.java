package dev.flipper.launcher.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.admin.AdminServer;
import dev.flipper.admin.LogCleanupEndpoint;
import dev.flipper.admin.LogEndpoint;
import dev.flipper.tls.TlsFolder;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.fleet.WorkerLogUrls;
import dev.flipper.workflow.worker.exec.LogCleaner;
import dev.flipper.workflow.worker.exec.LogFiles;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cleanup's deletion of log files through the workers' admin servers, one of them gone. */
class WorkerLogCleanupTest {
  @TempDir Path dir;

  @Test
  void deletesEachLogOnItsWorkerAndNamesTheWorkerThatDidNotAnswer() throws Exception {
    LogFiles logs = new LogFiles(dir.resolve("logs"));
    LogFiles.AttemptLogs cleaned = logs.create("etl", "17", "extract", 1);
    LogFiles.AttemptLogs kept = logs.create("etl", "18", "extract", 1);
    for (LogFiles.AttemptLogs attempt : List.of(cleaned, kept)) {
      Files.writeString(attempt.stdout(), "out\n");
      Files.writeString(attempt.stderr(), "err\n");
    }
    int gone;
    try (ServerSocket socket = new ServerSocket(0)) {
      gone = socket.getLocalPort(); // closed below: nothing listens there
    }
    try (AdminServer worker =
        new AdminServer(
            "workers",
            "127.0.0.1",
            0,
            new MetricRegistry(),
            () -> Map.of("workers", true),
            List.of(
                new LogEndpoint(logs).route(),
                new LogCleanupEndpoint(new LogCleaner(logs)).route()))) {
      worker.start();
      String base = "http://127.0.0.1:" + worker.port() + "/logs/etl/17/";

      List<String> notes =
          new WorkerLogCleanup(null, url -> url)
              .delete(
                  List.of(
                      base + "extract.1.stdout",
                      base + "extract.1.stderr",
                      "http://127.0.0.1:" + gone + "/logs/etl/17/load.1.stdout",
                      "http://127.0.0.1:" + gone + "/logs/etl/17/load.1.stderr"));

      assertThat(cleaned.stdout()).doesNotExist();
      assertThat(cleaned.stderr()).doesNotExist();
      assertThat(kept.stdout()).exists();
      assertThat(notes)
          .containsExactly(
              "deleted 2 of 4 log files on the workers",
              "2 log files not deleted: http://127.0.0.1:" + gone + " did not delete them");
    }
  }

  @Test
  void withTlsTheOperatorDeletesLogsOverHttpsAndAnApplicationCannot() throws Exception {
    TlsFolder certificates = TlsFolder.init(dir.resolve("certs"), List.of(), Clock.systemUTC());
    LogFiles logs = new LogFiles(dir.resolve("logs"));
    LogFiles.AttemptLogs attempt = logs.create("etl", "17", "extract", 1);
    Files.writeString(attempt.stdout(), "out\n");
    try (AdminServer worker =
        new AdminServer(
            "workers",
            "127.0.0.1",
            0,
            new MetricRegistry(),
            () -> Map.of("workers", true),
            List.of(new LogCleanupEndpoint(new LogCleaner(logs)).route()),
            certificates.identity("workers"))) {
      worker.start();
      // written by a worker before TLS was on: read as https
      String url = "http://localhost:" + worker.port() + "/logs/etl/17/extract.1.stdout";

      List<String> asApp =
          new WorkerLogCleanup(certificates.identity("app"), u -> u).delete(List.of(url));
      assertThat(attempt.stdout()).exists();
      List<String> asOperator =
          new WorkerLogCleanup(certificates.identity("operator"), u -> u).delete(List.of(url));

      assertThat(asApp).contains("deleted 0 of 1 log files on the workers");
      assertThat(asOperator).containsExactly("deleted 1 of 1 log files on the workers");
      assertThat(attempt.stdout()).doesNotExist();
    }
  }

  /** Issue #25: cleanup sent DELETE to whatever host an execution record named. */
  @Test
  void aLogUrlOfNoKnownWorkerGetsNoDelete() throws Exception {
    LogFiles logs = new LogFiles(dir.resolve("logs"));
    LogFiles.AttemptLogs attempt = logs.create("etl", "17", "extract", 1);
    Files.writeString(attempt.stdout(), "out\n");
    try (AdminServer server =
        new AdminServer(
            "workers",
            "127.0.0.1",
            0,
            new MetricRegistry(),
            () -> Map.of("workers", true),
            List.of(new LogCleanupEndpoint(new LogCleaner(logs)).route()))) {
      server.start();
      String url = "http://127.0.0.1:" + server.port() + "/logs/etl/17/extract.1.stdout";
      WorkerLogUrls noHeartbeats =
          new WorkerLogUrls(TokenService.builder(InMemoryTokenStore.create()).build());

      List<String> notes = new WorkerLogCleanup(null, noHeartbeats::fetchable).delete(List.of(url));

      assertThat(attempt.stdout()).exists();
      assertThat(notes)
          .containsExactly(
              "deleted 0 of 1 log files on the workers",
              "1 log files not deleted: not a log of a known worker (" + url + ")");
    }
  }

  @Test
  void noLogsNoNotes() {
    assertThat(new WorkerLogCleanup(null, url -> url).delete(List.of())).isEmpty();
  }
}
