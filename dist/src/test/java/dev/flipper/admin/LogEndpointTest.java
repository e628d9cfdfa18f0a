package dev.flipper.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
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
 * The workers' /logs endpoint on an admin server: whole file, tail with offsets, confinement to the
 * log dir.
 */
class LogEndpointTest {
  private final HttpClient http = HttpClient.newHttpClient();
  @TempDir Path dir;
  private AdminServer server;
  private LogFiles logs;

  @BeforeEach
  void start() throws Exception {
    logs = new LogFiles(dir.resolve("logs"));
    LogFiles.AttemptLogs attempt = logs.create("etl", "17", "my job", 1);
    Files.writeString(attempt.stdout(), "line one\nline two\n");
    Files.writeString(dir.resolve("secret.txt"), "secret\n");
    server =
        new AdminServer(
            "workers",
            "127.0.0.1",
            0,
            new MetricRegistry(),
            () -> Map.of("workers", true),
            List.of(new LogEndpoint(logs).route()));
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + server.port() + path);
    return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servesTheWholeFileUnderTheUrlOfItsRelativePath() throws Exception {
    // "my job" is stored as my%20job: the URL escapes the % itself
    HttpResponse<String> whole = get("/logs/etl/17/my%2520job.1.stdout");

    assertThat(whole.statusCode()).isEqualTo(200);
    assertThat(whole.body()).isEqualTo("line one\nline two\n");
  }

  @Test
  void tailsFromAnOffsetWithTheNextOffsetInHeaders() throws Exception {
    HttpResponse<String> first = get("/logs/etl/17/my%2520job.1.stdout?offset=0&max=5");
    assertThat(first.body()).isEqualTo("line ");
    assertThat(first.headers().firstValue(LogEndpoint.NEXT_OFFSET)).contains("5");
    assertThat(first.headers().firstValue(LogEndpoint.SIZE)).contains("18");

    HttpResponse<String> rest = get("/logs/etl/17/my%2520job.1.stdout?offset=5");
    assertThat(rest.body()).isEqualTo("one\nline two\n");
    assertThat(rest.headers().firstValue(LogEndpoint.NEXT_OFFSET)).contains("18");

    HttpResponse<String> end = get("/logs/etl/17/my%2520job.1.stdout?offset=-9");
    assertThat(end.body()).isEqualTo("line two\n");
  }

  @Test
  void refusesPathsOutsideTheLogDirectoryAndAnswers404ForMissingLogs() throws Exception {
    assertThat(get("/logs/..%2Fsecret.txt").statusCode()).isEqualTo(400);
    assertThat(get("/logs/etl/../../secret.txt").statusCode()).isIn(400, 404);
    assertThat(get("/logs/etl/17/nope.1.stdout").statusCode()).isEqualTo(404);
    assertThat(get("/logs/etl/17/my%2520job.1.stdout?offset=x").statusCode()).isEqualTo(400);
  }

  @Test
  void aLinkPlantedInTheLogDirectoryIsNoSuchLogAndNoAnswerNamesTheDirectory() throws Exception {
    Path instance = logs.root().resolve("etl/17");
    Files.createLink(instance.resolve("hard.1.stdout"), dir.resolve("secret.txt"));
    Files.createSymbolicLink(instance.resolve("soft.1.stdout"), dir.resolve("secret.txt"));

    for (String link : List.of("hard.1.stdout", "soft.1.stdout")) {
      for (String query : List.of("", "?offset=0")) {
        HttpResponse<String> answer = get("/logs/etl/17/" + link + query);
        assertThat(answer.statusCode()).as(link + query).isEqualTo(404);
        assertThat(answer.body()).isEqualTo("no such log 'etl/17/" + link + "'\n");
      }
    }
    HttpResponse<String> outside = get("/logs/..%2Fsecret.txt");
    assertThat(outside.statusCode()).isEqualTo(400);
    assertThat(outside.body()).doesNotContain(dir.toString());
  }
}
