package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #26, "states that say the truth": held instances show PAUSED or DRAINED, jobs below a
 * failure UPSTREAM_FAILED, in the pages and their JSON; times and durations in one readable form.
 */
class UiStatesTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private UiFixture fixture;

  @BeforeEach
  void start() {
    fixture = new UiFixture().seed();
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  private String get(String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(fixture.base() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return response.body();
  }

  private JsonNode api(String path) throws IOException, InterruptedException {
    return JSON.readTree(get("/api" + path));
  }

  private void signal(String name) {
    fixture.client.modify(new ModifyParams(List.of(Token.of(name, "{}")), List.of()));
  }

  @Test
  void drainedAndPausedInstancesShowSoInEveryList() throws Exception {
    String instance = "/workflows/etl/instances/" + fixture.running;
    assertThat(api(instance).get("instance").get("status").asText()).isEqualTo("RUNNING");

    signal("/signal/global/DRAIN");

    JsonNode page = api(instance).get("instance");
    assertThat(page.get("status").asText()).isEqualTo("DRAINED");
    assertThat(page.get("hold").asText()).isEqualTo("DRAIN signal (global level)");
    assertThat(get(instance))
        .contains("id=\"instance-status\">DRAINED</span>")
        .contains("by a DRAIN signal (global level)");
    assertThat(api("/workflows/etl").get("instances").get(0).get("status").asText())
        .isEqualTo("DRAINED");
    JsonNode etl = api("/workflows").get("workflows").get(0);
    assertThat(etl.get("status").asText()).isEqualTo("DRAINED");
    assertThat(etl.get("runningInstances").asInt()).isEqualTo(1);
    assertThat(get("/")).contains("<span class=\"status drained\">DRAINED</span>");

    signal("/signal/instance/etl/" + fixture.running + "/PAUSE");

    assertThat(api(instance).get("instance").get("status").asText()).isEqualTo("PAUSED");
    assertThat(api("/workflows").get("workflows").get(0).get("status").asText())
        .isEqualTo("PAUSED");
    assertThat(api("/schedules").get("schedules").get(0).get("lastStatus").asText())
        .isEqualTo("PAUSED");
  }

  @Test
  void jobsBelowAFailedJobShowUpstreamFailedInTheTableGraphAndLegend() throws Exception {
    String failed = fixture.withFailedTransform();
    String instance = "/workflows/etl/instances/" + failed;

    JsonNode page = api(instance);
    assertThat(page.get("instance").get("status").asText()).isEqualTo("RUNNING");
    assertThat(page.get("graph").toString())
        .contains("{\"id\":\"transform\",\"status\":\"FAILURE\"")
        .contains("{\"id\":\"load\",\"status\":\"UPSTREAM_FAILED\"");
    String html = get(instance);
    assertThat(html)
        .containsPattern(
            "<tr data-job=\"load\">\\s*(<td class=\"pick\">.*</td>\\s*)?<td>.*</td>\\s*"
                + "<td><span class=\"status upstream_failed\">"
                + "UPSTREAM_FAILED</span>")
        .contains("id=\"graph-legend\"")
        .contains("<span class=\"status upstream_failed\">UPSTREAM_FAILED</span> ");
    // the graph colours UPSTREAM_FAILED with the badges' colour of that status (ui.css)
    assertThat(get("/static/graph.js")).contains("'UPSTREAM_FAILED'", "'--st-'");
    assertThat(get("/static/ui.css")).contains("--st-upstream-failed-bg:");
  }

  @Test
  void timesAreUtcAndLabelledAndDurationsNeverIso() throws Exception {
    String html = get("/workflows/etl/instances/" + fixture.finished);
    assertThat(html)
        .containsPattern(
            "<dt>Start</dt><dd><time class=\"ts\" datetime=\"[0-9T:.-]+Z\" title=\"(?<utc>\\d{4}-\\d\\d-\\d\\d"
                + " \\d\\d:\\d\\d:\\d\\d UTC)\">\\k<utc></time></dd>")
        .containsPattern("<dt>Duration</dt><dd>\\d+(ms|s)</dd>")
        .doesNotContainPattern(">PT\\d");
    assertThat(get("/workers")).containsPattern(">\\d+s ago<").containsPattern(">1h ago<");
  }
}
