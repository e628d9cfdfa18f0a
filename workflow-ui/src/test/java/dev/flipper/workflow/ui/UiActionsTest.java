package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The actions over HTTP: CSRF refusals change nothing in the master, an action changes the instance
 * and its page lists the tokens written, destructive actions ask first, refusals say why. Each test
 * its own master.
 */
class UiActionsTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FORM_TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
  private UiFixture fixture;
  private String cookie;
  private String token;

  @BeforeEach
  void start() throws Exception {
    fixture = new UiFixture().seed();
    HttpResponse<String> page = get("/workflows/etl/instances/" + fixture.running);
    cookie = page.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    Matcher form = FORM_TOKEN.matcher(page.body());
    assertThat(form.find()).as("the instance page's forms carry the token").isTrue();
    token = form.group(1);
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void cookieIsHttpOnlyAndSameSiteStrictAndBindsTheFormsToken() throws Exception {
    HttpResponse<String> page = get("/workflows/etl");
    String setCookie = page.headers().firstValue("Set-Cookie").orElseThrow();

    assertThat(setCookie)
        .startsWith(Csrf.COOKIE + "=")
        .contains("HttpOnly")
        .contains("SameSite=Strict")
        .doesNotContain("Secure");
    assertThat(token)
        .as("the token is bound to the cookie's browser id, not a copy of it")
        .isNotEmpty()
        .isNotEqualTo(cookie.substring(Csrf.COOKIE.length() + 1));
  }

  @Test
  void actionWithoutTokenIsRefusedAndChangesNothing() throws Exception {
    List<Token> before = tokens();

    HttpResponse<String> noToken =
        post(
            "/actions/pause", Map.of("workflow", "etl", "instance", fixture.running), cookie, null);
    HttpResponse<String> noCookie =
        post(
            "/actions/pause",
            Map.of("workflow", "etl", "instance", fixture.running, "csrf", token),
            null,
            null);
    HttpResponse<String> wrongToken =
        post(
            "/actions/abort",
            Map.of(
                "workflow",
                "etl",
                "instance",
                fixture.running,
                "csrf",
                token + "x",
                "confirm",
                "yes"),
            cookie,
            null);
    HttpResponse<String> apiNoHeader =
        postJson(
            "/api/actions/pause",
            "{\"workflow\":\"etl\",\"instance\":\"" + fixture.running + "\"}",
            cookie,
            null);
    HttpResponse<String> apiWrongHeader =
        postJson(
            "/api/actions/stop",
            "{\"workflow\":\"etl\",\"instance\":\"" + fixture.running + "\"}",
            cookie,
            "forged");

    assertThat(List.of(noToken, noCookie, wrongToken, apiNoHeader, apiWrongHeader))
        .allSatisfy(r -> assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(403));
    assertThat(noToken.body()).contains("CSRF");
    assertThat(tokens()).isEqualTo(before);
  }

  @Test
  void pauseThenResumeChangeTheInstanceAndShowWhatChanged() throws Exception {
    HttpResponse<String> asked =
        post(
            "/actions/pause",
            Map.of("workflow", "etl", "instance", fixture.running, "csrf", token),
            cookie,
            null);
    assertThat(asked.body())
        .contains("Confirm pause")
        .contains("pause will change exactly these:")
        .contains("nothing new starts; running jobs finish");
    assertThat(banner()).noneSatisfy(s -> assertThat(s).contains("PAUSE"));
    HttpResponse<String> paused =
        post(
            "/actions/pause",
            Map.of("workflow", "etl", "instance", fixture.running, "csrf", token, "confirm", "yes"),
            cookie,
            null);

    assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
    assertThat(paused.body())
        .contains("Changed 1 token(s)")
        .contains("added")
        .contains("/signal/instance/etl/" + fixture.running + "/PAUSE");
    assertThat(banner()).anySatisfy(s -> assertThat(s).contains("PAUSE"));

    HttpResponse<String> resumed =
        postJson(
            "/api/actions/resume",
            "{\"workflow\":\"etl\",\"instance\":\"" + fixture.running + "\"}",
            cookie,
            token);

    assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
    JsonNode result = JSON.readTree(resumed.body());
    assertThat(result.get("operation").asText()).isEqualTo("resume");
    assertThat(result.get("changed").asBoolean()).isTrue();
    assertThat(result.get("changes").get(0).get("action").asText()).isEqualTo("deleted");
    assertThat(banner()).noneSatisfy(s -> assertThat(s).contains("PAUSE"));
  }

  @Test
  void retryPreviewListsTheFailedJobAndWhatIsBelowItAndChangesNothing() throws Exception {
    String failed = fixture.withFailedTransform();
    List<Token> before = tokens();

    HttpResponse<String> form =
        post(
            "/actions/retry",
            Map.of("workflow", "etl", "instance", failed, "csrf", token),
            cookie,
            null);
    HttpResponse<String> api =
        postJson(
            "/api/actions/retry?preview=true",
            "{\"workflow\":\"etl\",\"instance\":\"" + failed + "\"}",
            cookie,
            token);

    assertThat(form.body()).contains("Confirm retry").contains("retry will change exactly these:");
    assertThat(api.statusCode()).as(api.body()).isEqualTo(200);
    JsonNode changes = JSON.readTree(api.body()).get("changes");
    assertThat(changes).hasSize(2);
    assertThat(changes.get(0).get("subject").asText()).isEqualTo("transform");
    assertThat(changes.get(0).get("from").asText()).isEqualTo("FAILURE");
    assertThat(changes.get(0).get("to").asText()).isEqualTo("RUNNABLE");
    assertThat(changes.get(1).get("subject").asText()).isEqualTo("load");
    assertThat(changes.get(1).get("why").asText()).isEqualTo("downstream of transform");
    assertThat(tokens()).isEqualTo(before);
  }

  @Test
  void startTakesTheRunsParametersAndRefusesBadOnesNamingTheRow() throws Exception {
    HttpResponse<String> started =
        postJson(
            "/api/actions/start",
            "{\"workflow\":\"etl\",\"params\":{\"day\":\"2026-11-28\",\"mode\":\"full\"}}",
            cookie,
            token);
    HttpResponse<String> refused =
        post(
            "/actions/start",
            Map.of("workflow", "etl", "csrf", token, "key", "bad key", "value", "x"),
            cookie,
            null);

    assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
    String instance = JSON.readTree(started.body()).get("instance").asText();
    JsonNode params =
        JSON.readTree(get("/api/workflows/etl/instances/" + instance).body()).get("params");
    assertThat(params.get("day").asText()).isEqualTo("2026-11-28");
    assertThat(params.get("mode").asText()).isEqualTo("full");
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).contains("parameter 1: key 'bad key' may only contain");
  }

  @Test
  void destructiveActionAsksFirstAndRunsOnlyWhenConfirmed() throws Exception {
    List<Token> before = tokens();

    HttpResponse<String> asked =
        post(
            "/actions/abort",
            Map.of("workflow", "etl", "instance", fixture.running, "csrf", token),
            cookie,
            null);

    assertThat(asked.statusCode()).isEqualTo(200);
    assertThat(asked.body())
        .contains("Confirm abort")
        .contains("name=\"confirm\" value=\"yes\"")
        .contains("name=\"csrf\" value=\"" + token + "\"");
    assertThat(tokens()).isEqualTo(before);

    HttpResponse<String> done =
        post(
            "/actions/abort",
            Map.of("workflow", "etl", "instance", fixture.running, "csrf", token, "confirm", "yes"),
            cookie,
            null);

    assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
    assertThat(done.body()).contains("abort instance etl/" + fixture.running).contains("Changed");
    assertThat(tokens()).isNotEqualTo(before);
  }

  @Test
  void refusalAndBadArgumentsSayWhyAndChangeNothing() throws Exception {
    List<Token> before = tokens();

    HttpResponse<String> refused =
        postJson("/api/actions/start", "{\"workflow\":\"nosuch\"}", cookie, token);
    HttpResponse<String> noJobs =
        post(
            "/actions/poison",
            Map.of("workflow", "etl", "instance", fixture.running, "csrf", token, "confirm", "yes"),
            cookie,
            null);
    HttpResponse<String> unknown = postJson("/api/actions/explode", "{}", cookie, token);

    assertThat(refused.statusCode()).as(refused.body()).isIn(400, 404, 409);
    assertThat(JSON.readTree(refused.body()).get("error").asText()).contains("nosuch");
    assertThat(noJobs.statusCode()).isEqualTo(400);
    assertThat(noJobs.body())
        .contains("poison refused")
        .contains("select at least one job")
        .contains("Nothing was changed");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(tokens()).isEqualTo(before);
  }

  private List<Token> tokens() {
    return fixture.client.query(Query.prefix("/"));
  }

  private List<String> banner() throws IOException, InterruptedException {
    JsonNode signals =
        JSON.readTree(get("/api/workflows/etl/instances/" + fixture.running).body())
            .get("banner")
            .get("signals");
    return java.util.stream.StreamSupport.stream(signals.spliterator(), false)
        .map(JsonNode::asText)
        .toList();
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(fixture.base() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(
      String path, Map<String, String> form, String cookie, String header)
      throws IOException, InterruptedException {
    String body =
        form.entrySet().stream()
            .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    return send(path, "application/x-www-form-urlencoded", body, cookie, header);
  }

  private HttpResponse<String> postJson(String path, String json, String cookie, String header)
      throws IOException, InterruptedException {
    return send(path, "application/json", json, cookie, header);
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
