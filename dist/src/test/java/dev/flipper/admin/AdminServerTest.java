package dev.flipper.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class AdminServerTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private final MetricRegistry registry = new MetricRegistry();
  private final AtomicBoolean storeReady = new AtomicBoolean(false);
  private AdminServer server;

  @BeforeEach
  void start() {
    server =
        new AdminServer(
            "queue",
            "127.0.0.1",
            0,
            registry,
            () -> {
              Map<String, Boolean> components = new LinkedHashMap<>();
              components.put("store", storeReady.get());
              components.put("monitor", true);
              return components;
            });
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
  void healthIs503UntilEveryComponentIsReady() throws Exception {
    HttpResponse<String> starting = get("/health");
    assertThat(starting.statusCode()).isEqualTo(503);
    assertThat(starting.body())
        .isEqualTo(
            "{\"daemon\":\"queue\",\"status\":\"not ready\",\"components\":{\"store\":false,\"monitor\":true}}");

    storeReady.set(true);

    HttpResponse<String> ready = get("/health");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    assertThat(ready.body())
        .isEqualTo(
            "{\"daemon\":\"queue\",\"status\":\"ready\",\"components\":{\"store\":true,\"monitor\":true}}");
    assertThat(server.isReady()).isTrue();
  }

  @Test
  void metricsAreInPrometheusTextFormat() throws Exception {
    registry.counter("queue.jobs.enqueued").inc(3);
    registry.register("queue.shards.healthy", (Gauge<Integer>) () -> 2);

    HttpResponse<String> response = get("/metrics");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(response.body().lines())
        .contains(
            "# TYPE flipper_queue_jobs_enqueued_total counter",
            "flipper_queue_jobs_enqueued_total 3.0",
            "# HELP flipper_queue_shards_healthy Shards of the queue store reachable now.",
            "flipper_queue_shards_healthy 2.0");
  }

  @Test
  void statsAreSortedNameValueLines() throws Exception {
    registry.counter("queue.jobs.enqueued").inc(3);
    registry.register("queue.shards.healthy", (Gauge<Integer>) () -> 2);
    registry.register("a.ratio", (Gauge<Double>) () -> 0.25);
    registry.timer("queue.dequeue").update(4, TimeUnit.MILLISECONDS);

    HttpResponse<String> response = get("/stats.txt");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
    assertThat(response.body().lines()).isSorted();
    assertThat(response.body().lines())
        .contains(
            "a.ratio: 0.250",
            "queue.jobs.enqueued: 3",
            "queue.shards.healthy: 2",
            "queue.dequeue.count: 1",
            "queue.dequeue.max_ms: 4",
            "queue.dequeue.p99_ms: 4");
  }

  @Test
  void portInUseIsReportedWithTheAddress() {
    AdminServer second = new AdminServer("master", "127.0.0.1", server.port(), registry, Map::of);

    assertThatThrownBy(second::start)
        .hasMessageStartingWith(
            "admin server 'master' cannot listen on 127.0.0.1:" + server.port() + ": ");
    second.close();
  }

  @Test
  @Tag("slow")
  void closeIsIdempotentAndFreesThePort() throws Exception {
    int port = server.port();
    server.close();
    server.close();

    AdminServer again = new AdminServer("queue", "127.0.0.1", port, registry, Map::of);
    again.start();
    try {
      assertThat(
              http.send(
                      HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                          .build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(200);
    } finally {
      again.close();
    }
  }
}
