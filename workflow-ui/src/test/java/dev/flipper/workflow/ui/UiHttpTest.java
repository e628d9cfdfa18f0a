package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import dev.flipper.workflow.mail.UiLinks;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The pages and the JSON API over HTTP, without a browser: data, escaping, errors. */
class UiHttpTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static UiFixture fixture;

  @BeforeAll
  static void start() {
    fixture = new UiFixture().seed();
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
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    return JSON.readTree(response.body());
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Test
  void workflowsListShowsOwnersScheduleStatusAndSuccessRate() throws Exception {
    JsonNode etl = api("/api/workflows").get("workflows").get(0);

    assertThat(etl.get("name").asText()).isEqualTo("etl");
    assertThat(etl.get("owners").toString()).isEqualTo("[\"data-team\",\"alice\"]");
    assertThat(etl.get("schedule").asText()).startsWith("every 1h");
    assertThat(etl.get("status").asText()).isEqualTo("RUNNING");
    assertThat(etl.get("lastInstance").asText()).isEqualTo(fixture.running);
    assertThat(etl.get("lastEnd").isNull()).isTrue();
    assertThat(etl.get("successRatePercent").asInt()).isEqualTo(100);
    assertThat(etl.get("finishedCounted").asInt()).isEqualTo(1);
    assertThat(get("/").body()).contains("href=\"/workflows/etl\"").contains("data-team, alice");
  }

  @Test
  void workflowShowsInstancesNewestFirstAndTheDefinition() throws Exception {
    JsonNode page = api("/api/workflows/etl");

    List<String> ids = new ArrayList<>();
    page.get("instances")
        .forEach(i -> ids.add(i.get("instance").asText() + " " + i.get("status").asText()));
    assertThat(ids).containsExactly(fixture.running + " RUNNING", fixture.finished + " SUCCESS");
    assertThat(page.get("yaml").asText())
        .contains("workflow: etl")
        .contains("./extract.sh --day today");
    assertThat(page.get("graph").toString())
        .contains(
            "{\"id\":\"load\",\"status\":\"WAITING\",\"parents\":"
                + "[\"transform\"],\"condition\":false}");
  }

  @Test
  void instanceHasJobsGraphAndOneTimelineBarPerExecution() throws Exception {
    JsonNode page = api("/api/workflows/etl/instances/" + fixture.finished);

    assertThat(page.get("instance").get("status").asText()).isEqualTo("SUCCESS");
    List<String> bars = new ArrayList<>();
    List<JsonNode> all = new ArrayList<>();
    page.get("timeline").get("rows").forEach(r -> r.get("bars").forEach(all::add));
    all.forEach(
        b ->
            bars.add(
                b.get("job").asText()
                    + "#"
                    + b.get("execution").asInt()
                    + " "
                    + b.get("status").asText()));
    assertThat(bars)
        .containsExactly(
            "extract#1 SUCCESS",
            "report#1 FAILURE",
            "report#2 SUCCESS",
            "transform#1 SUCCESS",
            "load#1 SUCCESS");
    all.forEach(
        b ->
            assertThat(b.get("leftPercent").asDouble() + b.get("widthPercent").asDouble())
                .isBetween(0.0, 100.0));
    assertThat(page.get("timeline").get("criticalPath").toString())
        .isEqualTo("[\"extract\",\"transform\",\"load\"]");
    assertThat(page.get("jobs").get(0).get("name").asText()).isEqualTo("extract");
  }

  @Test
  void runningJobShowsItsOpenExecutionAndWorker() throws Exception {
    JsonNode page = api("/api/workflows/etl/instances/" + fixture.running + "/jobs/transform");

    assertThat(page.get("job").get("status").asText()).isEqualTo("RUNNING");
    JsonNode execution = page.get("executions").get(0);
    assertThat(execution.get("running").asBoolean()).isTrue();
    assertThat(execution.get("end").isNull()).isTrue();
    assertThat(execution.get("worker").asText()).isEqualTo("worker-1");
    assertThat(execution.get("logs").toString()).isEqualTo("[\"stderr\",\"stdout\"]");
  }

  @Test
  void jobNamePropertyAndLogLineWithScriptAreEscapedText() throws Exception {
    String instancePage = get("/workflows/etl/instances/" + fixture.running).body();
    assertThat(instancePage)
        .contains("&lt;script&gt;window.xssJob=1&lt;/script&gt;")
        .doesNotContain(UiFixture.XSS_JOB);

    String jobPage = get("/workflows/etl/instances/" + fixture.finished + "/jobs/report").body();
    assertThat(jobPage)
        .contains("&lt;script&gt;window.xssProperty=1&lt;/script&gt;")
        .doesNotContain(UiFixture.XSS_PROPERTY)
        .contains("echo '&lt;script&gt;window.xssLog=1&lt;/script&gt;'")
        .doesNotContain("href=\"javascript:");
    String extractPage =
        get("/workflows/etl/instances/" + fixture.finished + "/jobs/extract").body();
    assertThat(extractPage).contains("<a href=\"https://jobs.example.com/1\"");

    String crafted =
        get("/workflows/etl/instances/" + fixture.running + "/jobs/" + encode(UiFixture.XSS_JOB))
            .body();
    assertThat(crafted)
        .contains("&lt;script&gt;window.xssJob=1&lt;/script&gt;")
        .doesNotContain(UiFixture.XSS_JOB);
  }

  @Test
  void logIsReadThroughTheWorkerFromAnOffsetAndDownloaded() throws Exception {
    String log =
        "/api/workflows/etl/instances/"
            + fixture.finished
            + "/jobs/report/executions/1/logs/stdout";
    JsonNode whole = api(log + "?offset=0");
    assertThat(whole.get("text").asText())
        .isEqualTo("running report\n" + UiFixture.XSS_LOG + "\ndone\n");
    assertThat(whole.get("running").asBoolean()).isFalse();
    assertThat(whole.get("nextOffset").asLong()).isEqualTo(whole.get("size").asLong());

    JsonNode tail = api(log + "?offset=-5");
    assertThat(tail.get("text").asText()).isEqualTo("done\n");
    assertThat(tail.get("offset").asLong()).isEqualTo(whole.get("size").asLong() - 5);

    HttpResponse<String> download = get(log + "/download");
    assertThat(download.statusCode()).isEqualTo(200);
    assertThat(download.headers().firstValue("Content-Disposition"))
        .hasValue("attachment; filename=\"report.1.stdout.log\"");
    assertThat(download.body()).isEqualTo(whole.get("text").asText());
  }

  @Test
  void runningLogIsFollowedByOffset() throws Exception {
    String log =
        "/api/workflows/etl/instances/"
            + fixture.running
            + "/jobs/transform/executions/1/logs/stdout";
    JsonNode first = api(log + "?offset=0");
    assertThat(first.get("running").asBoolean()).isTrue();

    fixture.append(fixture.running, "transform", 1, "stdout", "more\n");
    JsonNode next = api(log + "?offset=" + first.get("nextOffset").asLong());
    assertThat(next.get("text").asText()).isEqualTo("more\n");
  }

  @Test
  void tokenBrowserListsGroupsAndShowsATokenAsText() throws Exception {
    JsonNode root = api("/api/tokens?path=/");
    List<String> paths = new ArrayList<>();
    root.get("entries").forEach(e -> paths.add(e.get("path").asText()));
    assertThat(paths).contains("/definition/", "/workflow/", "/schedule/", "/runnable/");

    JsonNode definitions = api("/api/tokens?path=/definition/");
    assertThat(definitions.get("entries").get(0).toString())
        .isEqualTo("{\"path\":\"/definition/etl\",\"count\":1,\"leaf\":true}");

    JsonNode token = api("/api/token?name=/definition/etl");
    assertThat(token.get("data").asText()).contains("\"yaml\"");
    assertThat(
            get("/token?name=" + encode("/workflow/etl/" + fixture.running + "/job/waiting/xss"))
                .body())
        .contains("&lt;script&gt;window.xssJob=1&lt;/script&gt;")
        .doesNotContain(UiFixture.XSS_JOB);
  }

  @Test
  void bannerNamesTheSignalsInForce() throws Exception {
    Token drain = Token.of("/signal/global/DRAIN", "{}");
    Token abort = Token.of("/signal/instance/etl/" + fixture.running + "/ABORT", "{}");
    List<Token> written = fixture.client.modify(new ModifyParams(List.of(drain, abort), List.of()));
    try {
      assertThat(api("/api/status").get("signals").toString()).isEqualTo("[\"DRAIN (global)\"]");
      assertThat(
              api("/api/workflows/etl/instances/" + fixture.running)
                  .get("banner")
                  .get("signals")
                  .toString())
          .isEqualTo("[\"DRAIN (global)\",\"ABORT (workflow or instance)\"]");
      assertThat(get("/").body())
          .contains("<div class=\"banner warn\" role=\"status\">DRAIN (global) in force</div>");
    } finally {
      fixture.client.modify(new ModifyParams(List.of(), written));
    }
    assertThat(api("/api/status").get("signals").size()).isZero();
  }

  @Test
  void aNameThatIsBothATokenAndAFolderIsListedAsBoth() throws Exception {
    List<Token> written =
        fixture.client.modify(
            new ModifyParams(
                List.of(
                    Token.of("/odd/a", "x"), Token.of("/odd/a/b", "y"), Token.of("/odd/a/c", "z")),
                List.of()));
    try {
      assertThat(api("/api/tokens?path=/odd/").get("entries").toString())
          .isEqualTo(
              "[{\"path\":\"/odd/a\",\"count\":1,\"leaf\":true},{\"path\":\"/odd/a/\",\"count\":2,\"leaf\":false}]");
      assertThat(api("/api/tokens?path=/odd/a/").get("crumbs").toString())
          .isEqualTo("[\"/\",\"/odd/\",\"/odd/a/\"]");
    } finally {
      fixture.client.modify(new ModifyParams(List.of(), written));
    }
  }

  @Test
  void statusIsTheBannerAlone() throws Exception {
    assertThat(api("/api/status").toString()).isEqualTo("{\"signals\":[],\"masterProblem\":null}");
  }

  @Test
  void linksInEmailOpenTheirPages() throws Exception {
    UiLinks mail = new UiLinks("");
    assertThat(get(mail.workflow("etl")).statusCode()).isEqualTo(200);
    assertThat(get(mail.instance("etl", fixture.finished)).statusCode()).isEqualTo(200);
    assertThat(get(mail.job("etl", fixture.finished, "report")).body())
        .contains("<h1 id=\"job-name\">report</h1>");
  }

  @Test
  void unknownThingsAre404WithWhatWasMissing() throws Exception {
    HttpResponse<String> api = get("/api/workflows/nope");
    assertThat(api.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(api.body()).get("error").asText())
        .isEqualTo("no workflow 'nope' (no stored definition and no run, active or archived)");

    HttpResponse<String> page = get("/workflows/etl/instances/" + fixture.finished + "/jobs/ghost");
    assertThat(page.statusCode()).isEqualTo(404);
    assertThat(page.body()).contains("no job 'ghost' in etl/" + fixture.finished);

    assertThat(
            get("/api/workflows/etl/instances/"
                    + fixture.finished
                    + "/jobs/report/executions/9/logs/stdout")
                .statusCode())
        .isEqualTo(404);
    assertThat(get("/api/token").statusCode()).isEqualTo(400);
  }

  @Test
  void graphAndPageScriptsComeFromWebJarsOnTheClasspath() throws Exception {
    String page = get("/workflows/etl/instances/" + fixture.finished).body();
    for (String script :
        List.of(
            "/webjars/cytoscape/",
            "/webjars/dagre/",
            "/webjars/cytoscape-dagre/",
            "/static/graph.js",
            "/static/ui.js")) {
      int at = page.indexOf("src=\"" + script);
      assertThat(at).as(script).isPositive();
      String src = page.substring(at + 5, page.indexOf('"', at + 5));
      assertThat(get(src).statusCode()).as(src).isEqualTo(200);
    }
  }
}
