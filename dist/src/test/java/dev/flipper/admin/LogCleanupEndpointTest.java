package dev.flipper.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.workflow.worker.exec.LogCleaner;
import dev.flipper.workflow.worker.exec.LogFiles;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DELETE /logs/... on the workers' admin server: one execution's log or an instance's directory,
 * nothing outside the log directory or at another level, no link followed, a repeat deletes
 * nothing.
 */
class LogCleanupEndpointTest {
  private final HttpClient http = HttpClient.newHttpClient();
  @TempDir Path dir;
  private AdminServer server;
  private LogFiles logs;
  private LogFiles.AttemptLogs first;
  private LogFiles.AttemptLogs second;
  private LogFiles.AttemptLogs other;

  @BeforeEach
  void start() throws Exception {
    logs = new LogFiles(dir.resolve("logs"));
    first = logs.create("etl", "17", "extract", 1);
    second = logs.create("etl", "17", "load", 1);
    other = logs.create("etl", "18", "extract", 1);
    for (LogFiles.AttemptLogs attempt : List.of(first, second, other)) {
      Files.writeString(attempt.stdout(), "out\n");
      Files.writeString(attempt.stderr(), "err\n");
    }
    Files.writeString(dir.resolve("secret.txt"), "secret\n");
    server =
        new AdminServer(
            "workers",
            "127.0.0.1",
            0,
            new MetricRegistry(),
            () -> Map.of("workers", true),
            List.of(
                new LogEndpoint(logs).route(),
                new LogCleanupEndpoint(new LogCleaner(logs)).route()));
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> delete(String path) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + server.port() + path);
    return http.send(
        HttpRequest.newBuilder(uri).DELETE().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void deletesOneExecutionsLogAndNothingElse() throws Exception {
    HttpResponse<String> response = delete("/logs/etl/17/extract.1.stdout");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("\"deleted\":1");
    assertThat(first.stdout()).doesNotExist();
    assertThat(first.stderr()).exists();
    assertThat(second.stdout()).exists();
    assertThat(delete("/logs/etl/17/extract.1.stdout").body())
        .as("a repeat")
        .contains("\"deleted\":0");
  }

  @Test
  void deletesAnInstancesDirectoryAndTheEmptyWorkflowDirectory() throws Exception {
    assertThat(delete("/logs/etl/17").body()).contains("\"deleted\":4");
    assertThat(dir.resolve("logs/etl/17")).doesNotExist();
    assertThat(other.stdout()).exists();

    assertThat(delete("/logs/etl/18").body()).contains("\"deleted\":2");
    assertThat(dir.resolve("logs/etl")).doesNotExist();
    assertThat(dir.resolve("logs")).exists();
  }

  @Test
  void refusesPathsOutsideTheLogDirectoryOrAtAnotherLevel() throws Exception {
    for (String path :
        List.of(
            "/logs/..%2Fsecret.txt",
            "/logs/etl/..%2F..%2Fsecret.txt",
            "/logs/etl",
            "/logs/etl/17/extract.1.stdout/x",
            "/logs/%2Ftmp/x")) {
      HttpResponse<String> response = delete(path);
      assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(400);
    }
    assertThat(dir.resolve("secret.txt")).exists();
    assertThat(first.stdout()).exists();
  }

  @Test
  void followsNoSymbolicLink() throws Exception {
    Path outside = Files.createDirectories(dir.resolve("outside/inst"));
    Files.writeString(outside.resolve("keep.stdout"), "keep\n");
    Files.createSymbolicLink(dir.resolve("logs/linked"), dir.resolve("outside"));

    HttpResponse<String> response = delete("/logs/linked/inst");

    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(outside.resolve("keep.stdout")).exists();
  }
}
