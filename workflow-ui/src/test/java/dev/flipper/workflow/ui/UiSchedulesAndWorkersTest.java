package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import io.javalin.Javalin;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The schedules and workers pages and their JSON, the unschedule/reschedule and exit/unexit actions
 * (what they change, their confirmation, refusals), and the log viewer's refusal to fetch a URL
 * that is not a known worker's log (SSRF). Each test its own master.
 */
class UiSchedulesAndWorkersTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FORM_TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
  private static final String SCHEDULE = "/schedule/workflow/etl";
  private static final String EXIT = "/signal/global/EXIT";
  private UiFixture fixture;
  private String cookie;
  private String token;

  @BeforeEach
  void start() throws Exception {
    fixture = new UiFixture().seed();
    HttpResponse<String> page = get("/workers");
    assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    cookie = page.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    Matcher form = FORM_TOKEN.matcher(page.body());
    assertThat(form.find()).as("the workers page's forms carry the token").isTrue();
    token = form.group(1);
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void schedulesPageShowsEachScheduleWithItsLastRun() throws Exception {
    JsonNode row = json("/api/schedules").get("schedules").get(0);

    assertThat(row.get("workflow").asText()).isEqualTo("etl");
    assertThat(row.get("state").asText())
        .isEqualTo("waiting"); // stored; no scheduler placed it yet
    assertThat(row.get("every").asText()).isEqualTo("1h");
    assertThat(row.get("cron").isNull()).isTrue();
    assertThat(row.get("overrunPolicy").asText()).isEqualTo("SKIP");
    assertThat(row.get("maxRunning").asInt()).isEqualTo(3);
    assertThat(row.get("lastInstance").asText()).isEqualTo(fixture.running);
    assertThat(row.get("lastStatus").asText()).isEqualTo("RUNNING");
    assertThat(row.get("runningInstances").asInt()).isEqualTo(1);
    HttpResponse<String> page = get("/schedules");
    assertThat(page.body())
        .contains("id=\"schedules-table\"")
        .contains("every 1h")
        .contains("href=\"/workflows/etl/instances/" + fixture.running + "\"")
        .contains("action=\"/actions/unschedule\"")
        .contains("href=\"/schedules\"");
  }

  @Test
  void unscheduleAsksFirstThenDeletesTheTokenAndRescheduleWritesItAgain() throws Exception {
    List<Token> before = tokens();

    HttpResponse<String> asked =
        post("/actions/unschedule", Map.of("workflow", "etl", "csrf", token));

    assertThat(asked.body())
        .contains("Confirm unschedule")
        .contains("name=\"workflow\" value=\"etl\"");
    assertThat(tokens()).isEqualTo(before);

    HttpResponse<String> done =
        post("/actions/unschedule", Map.of("workflow", "etl", "csrf", token, "confirm", "yes"));

    assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
    assertThat(done.body())
        .contains("Changed 1 token(s)")
        .contains("deleted")
        .contains(SCHEDULE)
        .contains("href=\"/schedules\"");
    assertThat(fixture.client.query(Query.prefix(SCHEDULE))).isEmpty();
    JsonNode row = json("/api/schedules").get("schedules").get(0);
    assertThat(row.get("state").asText()).isEqualTo("unscheduled");
    assertThat(row.get("every").asText()).isEqualTo("1h"); // as the definition says
    assertThat(get("/schedules").body()).contains("action=\"/actions/reschedule\"");
    assertThat(workflowRow("etl").get("schedule").asText())
        .startsWith("every 1h")
        .endsWith(" (unscheduled)");

    HttpResponse<String> rescheduled =
        postJson("/api/actions/reschedule", "{\"workflow\":\"etl\"}");

    assertThat(rescheduled.statusCode()).as(rescheduled.body()).isEqualTo(200);
    JsonNode change = JSON.readTree(rescheduled.body()).get("changes").get(0);
    assertThat(change.get("action").asText()).isEqualTo("added");
    assertThat(change.get("token").asText()).isEqualTo(SCHEDULE);
    assertThat(fixture.client.query(Query.prefix(SCHEDULE))).hasSize(1);
    assertThat(json("/api/schedules").get("schedules").get(0).get("state").asText())
        .isEqualTo("waiting");
    assertThat(workflowRow("etl").get("schedule").asText())
        .startsWith("every 1h")
        .doesNotContain("unscheduled");
  }

  private JsonNode workflowRow(String workflow) throws Exception {
    for (JsonNode row : json("/api/workflows").get("workflows")) {
      if (row.get("name").asText().equals(workflow)) {
        return row;
      }
    }
    throw new AssertionError("no row of " + workflow + " in /api/workflows");
  }

  @Test
  void rescheduleOfAWorkflowWithoutDefinitionIsRefusedAndChangesNothing() throws Exception {
    List<Token> before = tokens();

    HttpResponse<String> refused = postJson("/api/actions/reschedule", "{\"workflow\":\"nosuch\"}");
    HttpResponse<String> noWorkflow = postJson("/api/actions/unschedule", "{}");

    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(JSON.readTree(refused.body()).get("error").asText())
        .contains("no stored definition of workflow nosuch");
    assertThat(noWorkflow.statusCode()).isEqualTo(400);
    assertThat(tokens()).isEqualTo(before);
  }

  @Test
  void workersPageShowsHeartbeatsWithTheirJobsAndState() throws Exception {
    JsonNode page = json("/api/workers");

    assertThat(page.get("exitGeneration").isNull()).isTrue();
    assertThat(page.get("newestGeneration").asInt()).isEqualTo(1);
    assertThat(page.get("alive").asInt()).isEqualTo(1);
    assertThat(page.get("dead").asInt()).isEqualTo(1);
    JsonNode alive = page.get("workers").get(0);
    assertThat(alive.get("name").asText()).isEqualTo(UiFixture.WORKER);
    assertThat(alive.get("state").asText()).isEqualTo("alive");
    assertThat(alive.get("generation").asInt()).isEqualTo(1);
    assertThat(alive.get("running").get(0).get("job").asText()).isEqualTo("transform");
    JsonNode dead = page.get("workers").get(1);
    assertThat(dead.get("name").asText()).isEqualTo(UiFixture.DEAD_WORKER);
    assertThat(dead.get("state").asText()).isEqualTo("dead");
    assertThat(dead.get("ageSeconds").asLong()).isGreaterThanOrEqualTo(3600);
    assertThat(get("/workers").body())
        .contains("id=\"workers-table\"")
        .contains("href=\"/workflows/etl/instances/" + fixture.running + "/jobs/transform\"")
        .contains("href=\"/workers\"");
  }

  @Test
  void exitAsksFirstThenSetsTheSignalAndUnexitRemovesIt() throws Exception {
    List<Token> before = tokens();

    HttpResponse<String> asked = post("/actions/exit", Map.of("generation", "2", "csrf", token));

    assertThat(asked.body())
        .contains("Confirm exit")
        .contains("workers older than generation 2")
        .contains("name=\"generation\" value=\"2\"");
    assertThat(tokens()).isEqualTo(before);

    HttpResponse<String> done =
        post("/actions/exit", Map.of("generation", "2", "csrf", token, "confirm", "yes"));

    assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
    assertThat(done.body())
        .contains("Changed 1 token(s)")
        .contains("added")
        .contains(EXIT)
        .contains("alive workers: 1 retiring")
        .contains("no alive worker takes work");
    JsonNode workers = json("/api/workers");
    assertThat(workers.get("exitGeneration").asInt()).isEqualTo(2);
    assertThat(workers.get("workers").get(0).get("state").asText()).isEqualTo("draining");
    assertThat(workers.get("banner").get("signals").toString()).contains("EXIT (global)");

    HttpResponse<String> unexit = postJson("/api/actions/unexit", "");

    assertThat(unexit.statusCode()).as(unexit.body()).isEqualTo(200);
    assertThat(JSON.readTree(unexit.body()).get("changes").get(0).get("action").asText())
        .isEqualTo("deleted");
    assertThat(json("/api/workers").get("exitGeneration").isNull()).isTrue();
    assertThat(tokens()).isEqualTo(before);
  }

  @Test
  void exitWithoutAGenerationOrABadOneIsRefusedAndChangesNothing() throws Exception {
    List<Token> before = tokens();

    HttpResponse<String> missing = post("/actions/exit", Map.of("csrf", token, "confirm", "yes"));
    HttpResponse<String> notANumber =
        post("/actions/exit", Map.of("csrf", token, "confirm", "yes", "generation", "two"));
    HttpResponse<String> zero = postJson("/api/actions/exit", "{\"generation\":0}");
    HttpResponse<String> noCsrf =
        send("/api/actions/exit", "application/json", "{\"generation\":2}", cookie, null);

    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(missing.body()).contains("exit needs 'generation'").contains("Nothing was changed");
    assertThat(notANumber.statusCode()).isEqualTo(400);
    assertThat(zero.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(zero.body()).get("error").asText()).contains("generations start at 1");
    assertThat(noCsrf.statusCode()).isEqualTo(403);
    assertThat(tokens()).isEqualTo(before);
  }

  @Test
  void logUrlsThatAreNotAKnownWorkersLogsAreNotFetched() throws Exception {
    AtomicInteger internalHits = new AtomicInteger();
    Javalin internal =
        Javalin.create(c -> c.showJavalinBanner = false)
            .get("/*", ctx -> ctx.result("secret " + internalHits.incrementAndGet()))
            .start("127.0.0.1", 0);
    try {
      String worker = "http://127.0.0.1:" + fixture.logServer.port();
      String instance =
          fixture.runningWithLogs(
              Map.of(
                  "stdout", "http://127.0.0.1:" + internal.port() + "/logs/x", // not a worker
                  "stderr", worker + "/logs/../admin/secret", // a worker, but not its logs
                  "trace", "file:///etc/passwd"));
      String logs = "/workflows/etl/instances/" + instance + "/jobs/extract/executions/1/logs/";

      HttpResponse<String> other = get("/api" + logs + "stdout?offset=0");
      HttpResponse<String> otherPage = get(logs + "stdout");
      HttpResponse<String> otherDownload = get("/api" + logs + "stdout/download");
      HttpResponse<String> notLogs = get("/api" + logs + "stderr?offset=0");
      HttpResponse<String> file = get("/api" + logs + "trace?offset=0");

      assertThat(List.of(other, otherPage, otherDownload, notLogs, file))
          .allSatisfy(r -> assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(403));
      assertThat(other.body()).contains("not on a known worker").doesNotContain("secret 1");
      assertThat(notLogs.body()).contains("is not http(s)://");
      assertThat(internalHits).hasValue(0);
      // The known worker's own log still reads.
      HttpResponse<String> known =
          get(
              "/api/workflows/etl/instances/"
                  + fixture.running
                  + "/jobs/transform/executions/1/logs/stdout?offset=0");
      assertThat(known.statusCode()).as(known.body()).isEqualTo(200);
      assertThat(JSON.readTree(known.body()).get("text").asText()).isEqualTo("reading events\n");
    } finally {
      internal.stop();
    }
  }

  private List<Token> tokens() {
    return fixture.client.query(Query.prefix("/"));
  }

  private JsonNode json(String path) throws IOException, InterruptedException {
    HttpResponse<String> response = get(path);
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(fixture.base() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, Map<String, String> form)
      throws IOException, InterruptedException {
    String body =
        form.entrySet().stream()
            .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    return send(path, "application/x-www-form-urlencoded", body, cookie, null);
  }

  private HttpResponse<String> postJson(String path, String json)
      throws IOException, InterruptedException {
    return send(path, "application/json", json, cookie, token);
  }

  private HttpResponse<String> send(
      String path, String type, String body, String cookie, String header)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(fixture.base() + path))
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    if (header != null) {
      request.header(Csrf.HEADER, header);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
