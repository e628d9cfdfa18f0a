package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The run history's pages and JSON over HTTP: paging, filters, the grid, bad parameters. */
class UiHistoryHttpTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static HistoryFixture fixture;

  @BeforeAll
  static void start() {
    fixture = new HistoryFixture().seed();
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(fixture.base() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode api(String path) throws IOException, InterruptedException {
    HttpResponse<String> response = get(path);
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static List<String> instances(JsonNode runs) {
    List<String> ids = new ArrayList<>();
    runs.forEach(r -> ids.add(r.get("instance").asText()));
    return ids;
  }

  @Test
  void runsArePagedNewestFirstWithTheirTotal() throws Exception {
    JsonNode page = api("/api/workflows/nightly/runs?size=10&page=2");

    assertThat(page.get("total").asLong()).isEqualTo(HistoryFixture.NIGHTLY_RUNS);
    assertThat(page.get("offset").asInt()).isEqualTo(10);
    assertThat(page.get("limit").asInt()).isEqualTo(10);
    List<String> expected = new ArrayList<>();
    for (int i = HistoryFixture.NIGHTLY_RUNS - 11; i >= HistoryFixture.NIGHTLY_RUNS - 20; i--) {
      expected.add(HistoryFixture.nightlyInstance(i));
    }
    assertThat(instances(page.get("runs"))).isEqualTo(expected);
    JsonNode last = api("/api/workflows/nightly/runs?size=10&page=3&sort=oldest");
    assertThat(instances(last.get("runs")))
        .containsExactly(
            HistoryFixture.nightlyInstance(20), HistoryFixture.nightlyInstance(21),
            HistoryFixture.nightlyInstance(22), HistoryFixture.nightlyInstance(23),
            HistoryFixture.nightlyInstance(24), HistoryFixture.nightlyInstance(25),
            HistoryFixture.nightlyInstance(26), HistoryFixture.nightlyInstance(27),
            HistoryFixture.nightlyInstance(28), HistoryFixture.nightlyInstance(29));
    assertThat(api("/api/workflows/nightly/runs?size=10&page=4").get("runs")).isEmpty();
  }

  @Test
  void activeAndArchivedRunsAreOneList() throws Exception {
    JsonNode runs = api("/api/workflows/etl/runs").get("runs");

    assertThat(instances(runs)).containsExactly(fixture.third, fixture.second, fixture.first);
    assertThat(runs.get(0).get("status").asText()).isEqualTo("RUNNING");
    assertThat(runs.get(0).get("durationMillis").isNull()).isTrue();
    assertThat(runs.get(1).get("status").asText()).isEqualTo("SUCCESS");
  }

  @Test
  void filtersByStatusTriggerDateAndText() throws Exception {
    JsonNode failedOnTheSecond =
        api("/api/workflows/filtered/runs?status=FAILURE&from=2026-11-02&to=2026-11-02");
    assertThat(instances(failedOnTheSecond.get("runs")))
        .containsExactly(
            HistoryFixture.filteredInstance(2, 9),
            HistoryFixture.filteredInstance(2, 6),
            HistoryFixture.filteredInstance(2, 3),
            HistoryFixture.filteredInstance(2, 0));
    assertThat(failedOnTheSecond.get("total").asLong()).isEqualTo(4);

    JsonNode cliAfterNoon =
        api("/api/workflows/filtered/runs?trigger=cli&from=2026-11-03T10:05&q=day%3D2026-11-03");
    assertThat(instances(cliAfterNoon.get("runs")))
        .containsExactly(
            HistoryFixture.filteredInstance(3, 8), HistoryFixture.filteredInstance(3, 6));

    JsonNode longest = api("/api/workflows/filtered/runs?sort=longest&size=3");
    assertThat(longest.get("runs").get(0).get("durationMillis").asLong()).isEqualTo(10_000);
  }

  @Test
  void theWorkflowPageListsItsRunsWithPagingAndSortLinks() throws Exception {
    String html = get("/workflows/nightly?size=10&page=2&status=FAILURE&status=SUCCESS").body();

    assertThat(html)
        .contains("11–20 of 30")
        .contains("href=\"/workflows/nightly?status=FAILURE&amp;status=SUCCESS&amp;size=10\"")
        .contains(
            "href=\"/workflows/nightly?status=FAILURE&amp;status=SUCCESS&amp;size=10&amp;page=3\"")
        .contains("id=\"sort-start\"")
        .contains("?status=FAILURE&amp;status=SUCCESS&amp;sort=oldest&amp;size=10#runs");
  }

  @Test
  void theGridHasTheLatestRunsOldestLeftAndItsJobsInDefinitionOrder() throws Exception {
    JsonNode grid = api("/api/workflows/nightly/grid?runs=25");

    assertThat(grid.get("runs")).hasSize(25);
    assertThat(grid.get("runs").get(0).get("instance").asText())
        .isEqualTo(HistoryFixture.nightlyInstance(5));
    assertThat(grid.get("runs").get(24).get("instance").asText())
        .isEqualTo(HistoryFixture.nightlyInstance(29));
    List<String> jobs = new ArrayList<>();
    grid.get("jobs").forEach(j -> jobs.add(j.get("job").asText()));
    assertThat(jobs).isEqualTo(HistoryFixture.NIGHTLY_JOBS);
    JsonNode cell = grid.get("jobs").get(1).get("cells").get(0); // clean in run 5
    assertThat(cell.get("status").asText())
        .isEqualTo(HistoryFixture.fails(5, 1) ? "FAILURE" : "SUCCESS");
    assertThat(cell.get("attempts").asInt()).isEqualTo(HistoryFixture.twice(5, 1) ? 2 : 1);
    assertThat(cell.get("link").asText())
        .isEqualTo(
            "/workflows/nightly/instances/"
                + HistoryFixture.nightlyInstance(5)
                + "/jobs/clean/executions/"
                + (HistoryFixture.twice(5, 1) ? 2 : 1)
                + "/logs/stdout");
    assertThat(grid.get("jobs").get(9).get("cells").get(0).isNull())
        .isTrue(); // archive: not in odd runs
  }

  @Test
  void aJobsHistorySpansRunsAndFiltersByStatus() throws Exception {
    JsonNode all = api("/api/workflows/etl/jobs/transform");
    assertThat(all.get("total").asLong()).isEqualTo(4);
    List<String> runs = new ArrayList<>();
    all.get("executions")
        .forEach(e -> runs.add(e.get("instance").asText() + "#" + e.get("execution").asInt()));
    assertThat(runs)
        .containsExactly(
            fixture.third + "#1",
            fixture.second + "#2",
            fixture.second + "#1",
            fixture.first + "#1");

    JsonNode failures = api("/api/workflows/etl/jobs/transform?status=FAILURE");
    assertThat(failures.get("executions")).hasSize(1);
    assertThat(failures.get("executions").get(0).get("exitCode").asInt()).isEqualTo(1);
  }

  @Test
  void anArchivedInstanceKeepsItsPageJobAndJson() throws Exception {
    JsonNode instance = api("/api/workflows/etl/instances/" + fixture.first);
    assertThat(instance.get("archived").asBoolean()).isTrue();
    assertThat(instance.get("instance").get("status").asText()).isEqualTo("SUCCESS");
    String html = get("/workflows/etl/instances/" + fixture.second).body();
    assertThat(html).contains("id=\"archived-badge\"").doesNotContain("action-pause");
    assertThat(get("/workflows/etl/instances/" + fixture.second + "/jobs/transform").body())
        .contains("archived")
        .contains("/workflows/etl/jobs/transform");
    assertThat(api("/api/workflows/etl/instances/" + fixture.third).get("archived").asBoolean())
        .isFalse();
    // its log link still finds the execution; the log itself only comes from a known worker
    HttpResponse<String> log =
        get("/workflows/etl/instances/" + fixture.first + "/jobs/extract/executions/1/logs/stdout");
    assertThat(log.statusCode()).as(log.body()).isEqualTo(403);
    assertThat(log.body()).contains("host-1:9093");
  }

  @Test
  void theOverviewShowsTheLatestRunIncludingArchivedOnes() throws Exception {
    JsonNode workflows = api("/api/workflows").get("workflows");
    JsonNode nightly = null;
    for (JsonNode w : workflows) {
      if (w.get("name").asText().equals("nightly")) {
        nightly = w;
      }
    }
    assertThat(nightly).isNotNull();
    int newest = HistoryFixture.NIGHTLY_RUNS - 1;
    boolean failed = false;
    for (int k = 0; k < 10; k++) {
      failed |= HistoryFixture.ran(newest, k) && HistoryFixture.fails(newest, k);
    }
    assertThat(nightly.get("status").asText()).isEqualTo(failed ? "FAILURE" : "SUCCESS");
    assertThat(nightly.get("lastInstance").asText())
        .isEqualTo(HistoryFixture.nightlyInstance(newest));
    assertThat(nightly.get("finishedCounted").asInt()).isEqualTo(Views.SUCCESS_RATE_OF_LAST);
  }

  @Test
  void badParametersAnswer400NamingTheParameter() throws Exception {
    assertBad("/workflows/etl?status=DONE", "parameter 'status' is 'DONE'; use one of RUNNING");
    assertBad(
        "/api/workflows/etl/runs?size=501",
        "parameter 'size' is '501'; use a whole number from 1 to 500");
    assertBad("/api/workflows/etl/runs?page=0", "parameter 'page' is '0'");
    assertBad("/workflows/etl?sort=fastest", "use one of newest, oldest, longest, shortest");
    assertBad("/workflows/etl?from=yesterday", "parameter 'from' is 'yesterday'; use a UTC date");
    assertBad(
        "/workflows/etl/grid?runs=0", "parameter 'runs' is '0'; use a whole number from 1 to 100");
    assertBad("/api/workflows/etl/grid?runs=101", "parameter 'runs' is '101'");
    assertBad(
        "/workflows/etl/jobs/load?status=PAUSED",
        "use one of RUNNING, SUCCESS, FAILURE, ABORTED, DISABLED");
  }

  private static void assertBad(String path, String message) throws Exception {
    HttpResponse<String> response = get(path);
    assertThat(response.statusCode()).as(path).isEqualTo(400);
    assertThat(response.body().replace("&#39;", "'")).as(path).contains(message);
  }
}
