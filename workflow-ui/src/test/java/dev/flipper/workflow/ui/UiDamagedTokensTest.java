package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #25: tokens that do not parse, written straight into the master over Thrift (an instance
 * record with a status from a newer release, a heartbeat, a job, a schedule and a definition that
 * are not JSON), are shown as {@code DAMAGED <name>: <reason>} rows; every page still answers 200.
 */
class UiDamagedTokensTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FORM_TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
  private static final String WORKER = "/worker/host-9-1-broken";
  private static final String SCHEDULE = "/schedule/workflow/nightly";
  private static final String DEFINITION = "/definition/nightly";

  private UiFixture fixture;
  private String future;
  private String futureRecord;
  private String brokenJob;

  @BeforeEach
  void start() throws Exception {
    fixture = new UiFixture().seed();
    future = fixture.engine.instances().start("etl");
    futureRecord = "/workflow/etl/" + future + "/instance";
    Token record = fixture.client.query(Query.prefix(futureRecord)).get(0);
    JsonNode data = JSON.readTree(record.data());
    ((ObjectNode) data).put("status", "HIBERNATING");
    brokenJob = "/workflow/etl/" + fixture.running + "/job/waiting/broken";
    fixture.client.modify(
        new ModifyParams(
            List.of(
                record.withData(data.toString()),
                Token.of(WORKER, "{\"name\": \"host-9-1-broken\", \"slots\": "),
                Token.of(brokenJob, "not json at all"),
                Token.of(SCHEDULE, "{\"workflow\": \"nightly\", \"nextRunMillis\": \"soon\"}"),
                Token.of(DEFINITION, "{\"yaml\": 42")),
            List.of()));
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void workflowsListShowsEveryDamagedTokenAndTheIntactWorkflow() throws Exception {
    for (String path : List.of("/", "/workflows")) {
      String body = page(path);
      assertThat(body)
          .contains("data-workflow=\"etl\"")
          .contains("DAMAGED <a href=\"/token?name=")
          .contains(futureRecord + "</a>: unknown status HIBERNATING")
          .contains(DEFINITION + "</a>: not DefinitionData JSON")
          .contains(SCHEDULE + "</a>: not schedule JSON");
    }
    JsonNode api = json("/api/workflows");
    assertThat(names(api.get("damaged"))).contains(futureRecord, DEFINITION, SCHEDULE);
    assertThat(api.get("workflows").get(0).get("name").asText()).isEqualTo("etl");
  }

  @Test
  void workflowPagesShowTheirDamagedRecordOrDefinition() throws Exception {
    assertThat(page("/workflows/etl"))
        .contains(futureRecord + "</a>: unknown status HIBERNATING")
        .contains("href=\"/workflows/etl/instances/" + fixture.running + "\"");
    assertThat(page("/workflows/nightly"))
        .contains(DEFINITION + "</a>: not DefinitionData JSON")
        .contains("apply its file again to repair it");
  }

  @Test
  void instancePagesShowADamagedJobAmongTheOthersAndADamagedRecordAsSuch() throws Exception {
    assertThat(page("/workflows/etl/instances/" + fixture.running))
        .contains(brokenJob + "</a>: not JobData JSON")
        .contains("data-job=\"transform\"");
    assertThat(page("/workflows/etl/instances/" + future))
        .contains("Damaged token")
        .contains(futureRecord + "</a>: unknown status HIBERNATING");
    JsonNode api = json("/api/workflows/etl/instances/" + future);
    assertThat(api.get("damaged").get(0).get("name").asText()).isEqualTo(futureRecord);
    assertThat(api.get("damaged").get(0).get("reason").asText())
        .isEqualTo("unknown status HIBERNATING");
  }

  @Test
  void schedulesAndWorkersPagesShowTheirDamagedTokens() throws Exception {
    assertThat(page("/schedules"))
        .contains(SCHEDULE + "</a>: not schedule JSON")
        .contains("every 1h");
    assertThat(page("/workers"))
        .contains(WORKER + "</a>: not HeartbeatData JSON")
        .contains(UiFixture.WORKER);
    assertThat(names(json("/api/workers").get("damaged"))).containsExactly(WORKER);
  }

  @Test
  void retryOfADamagedInstanceIsRefusedNamingItsToken() throws Exception {
    HttpResponse<String> first = get("/workers");
    String cookie = first.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    Matcher form = FORM_TOKEN.matcher(first.body());
    assertThat(form.find()).isTrue();
    HttpResponse<String> retried =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(fixture.base() + "/api/actions/retry"))
                .header("Content-Type", "application/json")
                .header("Cookie", cookie)
                .header(Csrf.HEADER, form.group(1))
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"workflow\":\"etl\",\"instance\":\"" + future + "\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(retried.statusCode()).as(retried.body()).isEqualTo(409);
    assertThat(JSON.readTree(retried.body()).get("error").asText())
        .isEqualTo(futureRecord + " is damaged: unknown status HIBERNATING");
  }

  private static List<String> names(JsonNode damaged) {
    List<String> names = new ArrayList<>();
    damaged.forEach(d -> names.add(d.get("name").asText()));
    return names;
  }

  private String page(String path) throws IOException, InterruptedException {
    HttpResponse<String> response = get(path);
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return response.body();
  }

  private JsonNode json(String path) throws IOException, InterruptedException {
    return JSON.readTree(page(path));
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(fixture.base() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
