package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.DequeueParams;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A pause made through the UI, which talks to queue server "a" only, stops dequeues on server "b"
 * too: the pause lives with the queue in the store both share, and each server re-reads it every
 * second. Resuming likewise. Prints how long each took to reach "b".
 */
@Tag("slow")
class QueuePauseAcrossServersTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private QueueUiFixture fixture;

  @BeforeEach
  void start() {
    fixture = new QueueUiFixture().seed();
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void pauseThroughTheUiReachesTheOtherServerWithinSeconds() throws Exception {
    HttpResponse<String> page = get("/queues");
    String cookie = page.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    String token =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(fixture.base() + "/api/csrf"))
                    .header("Cookie", cookie)
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body()
            .replaceFirst("^\\{\"token\":\"([^\"]+)\".*", "$1");
    assertThat(dueOnB()).as("server b hands out jobs before the pause").isTrue();

    long pausedAt = System.nanoTime();
    HttpResponse<String> pause = post("/api/actions/queue/pause", cookie, token);
    assertThat(pause.statusCode()).as(pause.body()).isEqualTo(200);
    assertThat(pause.body()).contains("\"changed\":1");
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> !dueOnB());
    long pauseMillis = (System.nanoTime() - pausedAt) / 1_000_000;
    assertThat(get("/api/queues").body()).contains("\"paused\":true");

    long resumedAt = System.nanoTime();
    assertThat(post("/api/actions/queue/resume", cookie, token).statusCode()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(this::dueOnB);
    long resumeMillis = (System.nanoTime() - resumedAt) / 1_000_000;
    System.out.printf(
        "pause through the UI (server a) reached server b after %d ms, resume after %d ms%n",
        pauseMillis, resumeMillis);
  }

  /** Whether server b would hand out a job of {@code mail} now (a dry run claims nothing). */
  private boolean dueOnB() {
    return !fixture
        .clientB
        .dequeue(DequeueParams.of("mail", 1, "test:b").withDryRun(true))
        .isEmpty();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(fixture.base() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String cookie, String token) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(fixture.base() + path))
            .header("Cookie", cookie)
            .header(Csrf.HEADER, token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"queue\":\"mail\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
