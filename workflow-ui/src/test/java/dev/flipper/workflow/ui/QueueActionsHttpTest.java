package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.queue.AckParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.workflow.ui.queue.QueueLinks;
import dev.flipper.workflow.ui.queue.RateLimits;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * The queue dashboard over HTTP against real queue servers: its JSON API (counts, scan paging with
 * a body filter, lookup), the queue actions behind CSRF and the operator role (refusals change
 * nothing), the confirmation of destructive ones, clear errors for bad input.
 */
class QueueActionsHttpTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FORM_TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
  private static final String PROXY_HEADER = "X-Remote-User";

  /** The rate-limit file as the launcher would hand it in. */
  private static final RateLimits LIMITS =
      new RateLimits() {
        @Override
        public Map<String, Double> current() {
          return Map.of("mail", 50.0);
        }

        @Override
        public String describe() {
          return "Rate limits from rates.json";
        }
      };

  private QueueUiFixture fixture;
  private String cookie;
  private String token;

  @BeforeEach
  void start() throws Exception {
    fixture =
        new QueueUiFixture(
                new UiAuth(
                    List.of(
                        new UiAuth.User(
                            "olga", BCrypt.hashpw("olga-pw", BCrypt.gensalt(4)), "operator"),
                        new UiAuth.User(
                            "victor", BCrypt.hashpw("victor-pw", BCrypt.gensalt(4)), "viewer")),
                    PROXY_HEADER,
                    List.of("127.0.0.1"),
                    false),
                LIMITS)
            .seed();
    HttpResponse<String> page = send("GET", "/queues/mail", "olga", null, null, null);
    assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    cookie = page.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    Matcher form = FORM_TOKEN.matcher(page.body());
    assertThat(form.find()).as("the queue page's forms carry the token").isTrue();
    token = form.group(1);
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void apiListsQueuesWithCountsPerStateAndPriorityAndPausedState() throws Exception {
    JsonNode queues = json(send("GET", "/api/queues", "victor", null, null, null));

    JsonNode mail = queues.get("queues").get(0);
    assertThat(mail.get("name").asText()).isEqualTo("mail");
    assertThat(mail.get("paused").asBoolean()).isFalse();
    assertThat(mail.get("rateLimit").asDouble()).isEqualTo(50.0);
    assertThat(mail.get("total").get("pending").asInt()).isEqualTo(4);
    assertThat(mail.get("total").get("future").asInt()).isEqualTo(1);
    assertThat(mail.get("total").get("failed").asInt()).isEqualTo(1);
    assertThat(mail.get("priorities")).hasSize(3);
    assertThat(mail.get("priorities").get(1).get("counts").get("pending").asInt())
        .as("priority 2")
        .isEqualTo(1);
    assertThat(mail.get("priorities").get(2).get("counts").get("failed").asInt())
        .as("priority 3")
        .isEqualTo(1);
    assertThat(queues.get("rateLimits").asText()).isEqualTo("Rate limits from rates.json");
    assertThat(send("GET", "/queues/mail", "victor", null, null, null).body())
        .contains("rate limit <span id=\"rate-limit\">50/s</span>");
  }

  @Test
  void scanPagesThroughContinuationsAndFiltersBodies() throws Exception {
    JsonNode first =
        json(send("GET", "/api/queues/mail?state=PENDING&limit=2", "victor", null, null, null));
    String next = first.get("scan").get("next").asText();
    JsonNode second =
        json(
            send(
                "GET",
                "/api/queues/mail?state=PENDING&limit=2&continuation="
                    + URLEncoder.encode(next, StandardCharsets.UTF_8),
                "victor",
                null,
                null,
                null));
    JsonNode filtered =
        json(
            send(
                "GET",
                "/api/queues/mail?state=PENDING&filter=hello%20%5B23%5D",
                "victor",
                null,
                null,
                null));

    List<String> bodies = new java.util.ArrayList<>();
    first.get("scan").get("jobs").forEach(j -> bodies.add(j.get("body").asText()));
    second.get("scan").get("jobs").forEach(j -> bodies.add(j.get("body").asText()));
    assertThat(bodies).containsExactlyInAnyOrder("hello 1", "hello 2", "hello 3", "urgent later");
    assertThat(second.get("scan").get("next").isNull()).isTrue();
    assertThat(filtered.get("scan").get("jobs"))
        .extracting(j -> j.get("body").asText())
        .containsExactlyInAnyOrder("hello 2", "hello 3");
  }

  @Test
  void lookupAnswersTheJobWithItsBodyAnd404ForAMissingOne() throws Exception {
    JsonNode job =
        json(
            send("GET", "/api/queue-job?descriptor=" + fixture.failed, "victor", null, null, null));
    HttpResponse<String> missing =
        send("GET", "/api/queue-job?descriptor=mail:s1:p1:999999", "victor", null, null, null);
    HttpResponse<String> malformed =
        send("GET", "/api/queue-job?descriptor=nonsense", "victor", null, null, null);
    HttpResponse<String> noQueue =
        send("GET", "/api/queues/nosuchqueue", "victor", null, null, null);

    assertThat(job.get("job").get("state").asText()).isEqualTo("FAILED");
    assertThat(job.get("job").get("body").asText()).isEqualTo(QueueUiFixture.XSS_BODY);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.body()).contains("nonsense");
    assertThat(noQueue.statusCode()).as(noQueue.body()).isEqualTo(404);
  }

  @Test
  void queueActionsWithoutCsrfTokenAreRefusedAndChangeNothing() throws Exception {
    List<HttpResponse<String>> refused =
        List.of(
            send(
                "POST",
                "/actions/queue/pause",
                "olga",
                cookie,
                null,
                form(Map.of("queue", "mail"))),
            send(
                "POST",
                "/actions/queue/pause",
                "olga",
                null,
                null,
                form(Map.of("queue", "mail", "csrf", token))),
            send(
                "POST",
                "/actions/queue/retry",
                "olga",
                cookie,
                null,
                form(Map.of("queue", "mail", "csrf", token + "x", "confirm", "yes"))),
            send(
                "POST",
                "/api/actions/queue/delete-job",
                "olga",
                cookie,
                null,
                "{\"job\":\"" + fixture.failed + "\"}"),
            send(
                "POST",
                "/actions/queue/retry-job",
                "olga",
                cookie,
                null,
                form(Map.of("job", fixture.failed.toString(), "confirm", "yes"))),
            send(
                "POST",
                "/api/actions/queue/pause",
                "olga",
                cookie,
                "forged",
                "{\"queue\":\"mail\"}"));

    assertThat(refused)
        .allSatisfy(r -> assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(403));
    assertUnchanged();
  }

  @Test
  void queueActionsOfAViewerAreRefusedAndChangeNothing() throws Exception {
    HttpResponse<String> viewerPage = send("GET", "/queues/mail", "victor", cookie, null, null);
    List<HttpResponse<String>> refused =
        List.of(
            send(
                "POST",
                "/actions/queue/pause",
                "victor",
                cookie,
                null,
                form(Map.of("queue", "mail", "csrf", token))),
            send(
                "POST",
                "/actions/queue/retry",
                "victor",
                cookie,
                null,
                form(Map.of("queue", "mail", "csrf", token, "confirm", "yes"))),
            send(
                "POST",
                "/actions/queue/delete",
                "victor",
                cookie,
                null,
                form(Map.of("queue", "mail", "csrf", token, "state", "PENDING", "confirm", "yes"))),
            send(
                "POST",
                "/api/actions/queue/delete-job",
                "victor",
                cookie,
                token,
                "{\"job\":\"" + fixture.failed + "\"}"),
            send(
                "POST",
                "/actions/queue/retry-job",
                "victor",
                cookie,
                null,
                form(Map.of("job", fixture.failed.toString(), "csrf", token, "confirm", "yes"))),
            send(
                "POST",
                "/api/actions/queue/pause",
                "victor",
                cookie,
                token,
                "{\"queue\":\"mail\"}"));

    assertThat(viewerPage.body())
        .as("a viewer's page has no action forms")
        .doesNotContain("/actions/queue/");
    assertThat(refused)
        .allSatisfy(r -> assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(403));
    assertUnchanged();
  }

  @Test
  void destructiveActionsAskFirstThenChangeAndSayWhat() throws Exception {
    HttpResponse<String> asked =
        send(
            "POST",
            "/actions/queue/delete",
            "olga",
            cookie,
            null,
            form(Map.of("queue", "mail", "csrf", token, "state", "PENDING", "filter", "hello")));
    assertThat(asked.statusCode()).isEqualTo(200);
    assertThat(asked.body())
        .contains("id=\"confirm-question\"")
        .contains("Delete 3 PENDING job(s) of queue mail");
    assertThat(countPending()).as("asking changes nothing").isEqualTo(4);

    HttpResponse<String> done =
        send(
            "POST",
            "/actions/queue/delete",
            "olga",
            cookie,
            null,
            form(
                Map.of(
                    "queue", "mail", "csrf", token, "state", "PENDING", "filter", "hello",
                    "confirm", "yes")));
    assertThat(done.body()).contains("id=\"result\"").contains("3 PENDING job(s) deleted");
    assertThat(countPending()).isEqualTo(1);

    HttpResponse<String> deleteJob =
        send(
            "POST",
            "/api/actions/queue/delete-job",
            "olga",
            cookie,
            token,
            "{\"job\":\"" + fixture.failed + "\"}");
    assertThat(json(deleteJob).get("changed").asInt()).isEqualTo(1);
    assertThat(fixture.clientB.lookup(List.of(fixture.failed), false)).isEmpty();
  }

  @Test
  void retryJobAsksFirstThenRetriesOnlyThatJobAndSaysWhyNotOtherwise() throws Exception {
    List<JobDescriptor> failed = failTwoJobsOf("single");
    String chosen = failed.get(0).toString();
    HttpResponse<String> jobPage = send("GET", QueueLinks.job(chosen), "olga", cookie, null, null);
    assertThat(jobPage.body())
        .contains("action=\"/actions/queue/retry-job\"", "id=\"action-retry-job\"");
    assertThat(send("GET", QueueLinks.job(chosen), "victor", cookie, null, null).body())
        .doesNotContain("/actions/queue/");

    HttpResponse<String> asked =
        send(
            "POST",
            "/actions/queue/retry-job",
            "olga",
            cookie,
            null,
            form(Map.of("job", chosen, "csrf", token)));
    assertThat(asked.statusCode()).isEqualTo(200);
    assertThat(asked.body())
        .contains("id=\"confirm-question\"")
        .contains("Retry job " + chosen + " (FAILED)?");
    assertThat(stateOf(failed.get(0))).as("asking changes nothing").isEqualTo(JobState.FAILED);

    HttpResponse<String> done =
        send(
            "POST",
            "/actions/queue/retry-job",
            "olga",
            cookie,
            null,
            form(Map.of("job", chosen, "csrf", token, "confirm", "yes")));
    assertThat(done.body())
        .contains(
            "id=\"result\"",
            "job " + chosen + ": FAILED → PENDING",
            "href=\"" + QueueLinks.job(chosen) + "\"");
    assertThat(stateOf(failed.get(0))).isEqualTo(JobState.PENDING);
    assertThat(stateOf(failed.get(1))).as("the other failed job").isEqualTo(JobState.FAILED);

    JsonNode again =
        json(
            send(
                "POST",
                "/api/actions/queue/retry-job",
                "olga",
                cookie,
                token,
                "{\"job\":\"" + chosen + "\"}"));
    assertThat(again.get("changed").asInt()).isZero();
    assertThat(again.get("changes").get(0).asText()).contains("it is PENDING, not FAILED");
    JsonNode missing =
        json(
            send(
                "POST",
                "/api/actions/queue/retry-job",
                "olga",
                cookie,
                token,
                "{\"job\":\"single:s1:p1:999999\"}"));
    assertThat(missing.get("changes").get(0).asText()).contains("it does not exist");
    HttpResponse<String> malformed =
        send(
            "POST",
            "/api/actions/queue/retry-job",
            "olga",
            cookie,
            token,
            "{\"job\":\"single:1\"}");
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.body()).contains("single:1");
    HttpResponse<String> noQueue =
        send(
            "POST",
            "/api/actions/queue/retry-job",
            "olga",
            cookie,
            token,
            "{\"job\":\"nowhere:s1:p1:1\"}");
    assertThat(noQueue.statusCode()).as(noQueue.body()).isEqualTo(404);
    assertThat(stateOf(failed.get(1))).isEqualTo(JobState.FAILED);
  }

  @Test
  void badInputGetsASpecificError() throws Exception {
    HttpResponse<String> badState =
        send("GET", "/api/queues/mail?state=DONE", "victor", null, null, null);
    HttpResponse<String> badRegex =
        send("GET", "/api/queues/mail?filter=%28", "victor", null, null, null);
    HttpResponse<String> badOp =
        send("POST", "/api/actions/queue/explode", "olga", cookie, token, "{\"queue\":\"mail\"}");
    HttpResponse<String> noState =
        send("POST", "/api/actions/queue/delete", "olga", cookie, token, "{\"queue\":\"mail\"}");

    assertThat(badState.statusCode()).isEqualTo(400);
    assertThat(badState.body()).contains("PENDING, IN_PROGRESS, SUCCEEDED or FAILED");
    assertThat(badRegex.statusCode()).isEqualTo(400);
    assertThat(badRegex.body()).contains("regular expression");
    assertThat(badOp.statusCode()).isEqualTo(404);
    assertThat(badOp.body()).contains("pause, resume, retry, retry-job, delete, delete-job");
    assertThat(noState.statusCode()).isEqualTo(400);
    assertThat(noState.body()).contains("'state' is required");
    assertUnchanged();
  }

  private void assertUnchanged() {
    assertThat(fixture.clientB.pausedQueues()).isEmpty();
    assertThat(fixture.clientB.count(CountParams.of("mail", JobState.FAILED))).isEqualTo(1);
    assertThat(countPending()).isEqualTo(4);
  }

  /** Creates the queue with two single-attempt jobs and fails both. */
  private List<JobDescriptor> failTwoJobsOf(String queue) {
    fixture.clientB.createQueue(queue);
    List<JobDescriptor> jobs =
        fixture.clientB.enqueue(
            queue,
            List.of(
                NewJob.of("one").withAttemptsAllowed(1), NewJob.of("two").withAttemptsAllowed(1)));
    List<AckParams.Item> failed =
        fixture.clientB.dequeue(queue, 2).stream()
            .map(j -> AckParams.Item.of(j.descriptor()))
            .toList();
    assertThat(failed).hasSize(2);
    fixture.clientB.ack(new AckParams(queue, List.of(), failed));
    return jobs;
  }

  private JobState stateOf(JobDescriptor job) {
    return fixture.clientB.lookup(List.of(job), false).get(job).state();
  }

  private int countPending() {
    return fixture.clientB.count(CountParams.of("mail", JobState.PENDING));
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static String form(Map<String, String> fields) {
    return new LinkedHashMap<>(fields)
        .entrySet().stream()
            .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
  }

  /**
   * A request as {@code user} (the trusted proxy's header), with the CSRF cookie and header when
   * given.
   */
  private HttpResponse<String> send(
      String method, String path, String user, String withCookie, String csrfHeader, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(fixture.base() + path)).header(PROXY_HEADER, user);
    if (withCookie != null) {
      request.header("Cookie", withCookie);
    }
    if (csrfHeader != null) {
      request.header(Csrf.HEADER, csrfHeader);
    }
    if (body == null) {
      request.GET();
    } else {
      request.header(
          "Content-Type",
          path.startsWith("/api/") ? "application/json" : "application/x-www-form-urlencoded");
      request.method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
