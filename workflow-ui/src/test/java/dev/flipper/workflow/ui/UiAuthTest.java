package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * Sign-in over HTTP: the login form and its session cookie, a viewer's action refused with 403 and
 * nothing changed, an operator's action recorded under their name, a trusted proxy's header, the
 * bind check.
 */
class UiAuthTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FORM_TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
  private static final String PROXY_HEADER = "X-Remote-User";
  private static final String FORM = "application/x-www-form-urlencoded";
  private UiFixture fixture;

  @BeforeEach
  void start() {
    fixture =
        new UiFixture(
                new UiAuth(
                    List.of(
                        new UiAuth.User(
                            "alice", BCrypt.hashpw("alice-pw", BCrypt.gensalt(4)), "operator"),
                        new UiAuth.User(
                            "victor", BCrypt.hashpw("victor-pw", BCrypt.gensalt(4)), "viewer")),
                    PROXY_HEADER,
                    List.of("127.0.0.1"),
                    false))
            .seed();
  }

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void withoutSignInPagesGoToTheLoginFormAndTheApiAnswers401() throws Exception {
    HttpResponse<String> page = send("GET", "/workflows/etl", null, null, "");
    HttpResponse<String> api = send("GET", "/api/workflows", null, null, "");

    assertThat(page.statusCode()).isEqualTo(302);
    assertThat(page.headers().firstValue("Location")).hasValue("/login?next=%2Fworkflows%2Fetl");
    assertThat(api.statusCode()).isEqualTo(401);
    assertThat(send("GET", "/login", null, null, "").body()).contains("id=\"login-password\"");
  }

  @Test
  void signInGoesOnlyToAPathOnThisSite() throws Exception {
    for (String next :
        List.of("//evil.example.com/x", "/\\evil.example.com", "https://evil.example.com/")) {
      HttpResponse<String> login = send("GET", "/login", null, null, "");
      Matcher form = FORM_TOKEN.matcher(login.body());
      assertThat(form.find()).isTrue();
      HttpResponse<String> signedIn =
          send(
              "POST",
              "/login",
              cookies(login),
              FORM,
              form(
                  Map.of(
                      "csrf",
                      form.group(1),
                      "next",
                      next,
                      "name",
                      "alice",
                      "password",
                      "alice-pw")));
      assertThat(signedIn.headers().firstValue("Location")).as(next).hasValue("/");
    }
  }

  @Test
  void wrongPasswordOrUnknownNameIsRefused() throws Exception {
    assertThat(signIn("alice", "guess").statusCode()).isEqualTo(401);
    assertThat(signIn("mallory", "alice-pw").statusCode()).isEqualTo(401);
  }

  @Test
  void sessionCookieHasSecureFlagsAndReadsPages() throws Exception {
    HttpResponse<String> signedIn = signIn("alice", "alice-pw");

    assertThat(signedIn.statusCode()).isEqualTo(302);
    assertThat(signedIn.headers().firstValue("Location")).hasValue("/workflows/etl");
    String setCookie =
        signedIn.headers().allValues("Set-Cookie").stream()
            .filter(c -> c.startsWith(Auth.SESSION_COOKIE))
            .findFirst()
            .orElseThrow();
    assertThat(setCookie).contains("HttpOnly").contains("SameSite=Strict");
    assertThat(send("GET", "/api/workflows", cookies(signedIn), null, "").statusCode())
        .isEqualTo(200);
  }

  @Test
  void meNamesTheUserAndSignOutEndsTheSession() throws Exception {
    String cookies = cookies(signIn("victor", "victor-pw"));

    String me = send("GET", "/api/me", cookies, null, "").body();
    HttpResponse<String> out =
        send("POST", "/logout", cookies, null, "", Csrf.HEADER, csrfOf(cookies));

    assertThat(me).isEqualTo("{\"name\":\"victor\",\"role\":\"viewer\",\"signIn\":true}");
    assertThat(out.statusCode()).isEqualTo(302);
    assertThat(send("GET", "/api/me", cookies, null, "").statusCode()).isEqualTo(401);
  }

  @Test
  void viewersActionIsRefusedWith403AndChangesNothing() throws Exception {
    String cookies = cookies(signIn("victor", "victor-pw"));
    String token = csrfOf(cookies);
    List<Token> before = tokens();

    HttpResponse<String> form =
        send(
            "POST",
            "/actions/pause",
            cookies,
            FORM,
            form(Map.of("workflow", "etl", "instance", fixture.running, "csrf", token)));
    HttpResponse<String> api =
        send(
            "POST",
            "/api/actions/stop",
            cookies,
            "application/json",
            "{\"workflow\":\"etl\",\"instance\":\"" + fixture.running + "\"}",
            Csrf.HEADER,
            token);

    assertThat(send("GET", "/workflows/etl/instances/" + fixture.running, cookies, null, "").body())
        .as("a viewer's page has no action bar")
        .doesNotContain("id=\"actions\"");
    assertThat(form.statusCode()).isEqualTo(403);
    assertThat(form.body()).contains("victor is a viewer");
    assertThat(api.statusCode()).isEqualTo(403);
    assertThat(tokens()).isEqualTo(before);
  }

  @Test
  void operatorsActionRunsUnderTheirName() throws Exception {
    String cookies = cookies(signIn("alice", "alice-pw"));

    HttpResponse<String> started =
        send(
            "POST",
            "/api/actions/start",
            cookies,
            "application/json",
            "{\"workflow\":\"etl\"}",
            Csrf.HEADER,
            csrfOf(cookies));

    assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
    String instance = JSON.readTree(started.body()).get("instance").asText();
    String page = send("GET", "/api/workflows/etl/instances/" + instance, cookies, null, "").body();
    assertThat(JSON.readTree(page).get("instance").get("startedBy").asText()).isEqualTo("alice");
  }

  @Test
  void trustedProxyHeaderNamesTheUser() throws Exception {
    HttpResponse<String> page =
        send(
            "GET",
            "/workflows/etl/instances/" + fixture.running,
            null,
            null,
            "",
            PROXY_HEADER,
            "alice");
    assertThat(page.statusCode()).isEqualTo(200);
    String cookies = cookies(page);
    Matcher form = FORM_TOKEN.matcher(page.body());
    assertThat(form.find()).isTrue();

    HttpResponse<String> paused =
        send(
            "POST",
            "/actions/pause",
            cookies,
            FORM,
            form(
                Map.of(
                    "workflow",
                    "etl",
                    "instance",
                    fixture.running,
                    "csrf",
                    form.group(1),
                    "confirm",
                    "yes")),
            PROXY_HEADER,
            "alice");
    HttpResponse<String> unknownIsViewer =
        send(
            "POST",
            "/actions/resume",
            cookies,
            FORM,
            form(Map.of("workflow", "etl", "instance", fixture.running, "csrf", form.group(1))),
            PROXY_HEADER,
            "someone");

    assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
    assertThat(paused.body()).contains("PAUSE signal set");
    assertThat(unknownIsViewer.statusCode()).isEqualTo(403);
  }

  @Test
  void headerFromAnUntrustedAddressIsIgnored() throws Exception {
    fixture.close();
    fixture = new UiFixture(new UiAuth(List.of(), PROXY_HEADER, List.of("10.9.9.9"), false)).seed();

    assertThat(send("GET", "/api/workflows", null, null, "", PROXY_HEADER, "alice").statusCode())
        .isEqualTo(401);
  }

  @Test
  void nonLoopbackBindWithoutSignInIsRefusedUnlessAllowed() {
    assertThatThrownBy(() -> UiAuth.NONE.checkBind("0.0.0.0"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("without sign-in")
        .hasMessageContaining("ui.allowAnonymous: true");
    UiAuth.NONE.checkBind("127.0.0.1");
    new UiAuth(List.of(), "", List.of(), true).checkBind("0.0.0.0");
    new UiAuth(List.of(), PROXY_HEADER, List.of("10.0.0.1"), false).checkBind("0.0.0.0");
  }

  private List<Token> tokens() {
    return fixture.client.query(Query.prefix("/"));
  }

  /** Signs in from the login form of a page that asked for it. */
  private HttpResponse<String> signIn(String name, String password)
      throws IOException, InterruptedException {
    HttpResponse<String> login = send("GET", "/login?next=/workflows/etl", null, null, "");
    Matcher form = FORM_TOKEN.matcher(login.body());
    assertThat(form.find()).isTrue();
    return send(
        "POST",
        "/login",
        cookies(login),
        FORM,
        form(
            Map.of(
                "csrf",
                form.group(1),
                "next",
                "/workflows/etl",
                "name",
                name,
                "password",
                password)));
  }

  /** The CSRF token of a signed-in session: the one its pages' forms carry. */
  private String csrfOf(String cookies) throws IOException, InterruptedException {
    HttpResponse<String> csrf = send("GET", "/api/csrf", cookies, null, "");
    assertThat(csrf.statusCode()).as(csrf.body()).isEqualTo(200);
    return JSON.readTree(csrf.body()).get("token").asText();
  }

  /** The cookies a response set, plus the CSRF cookie of the request that led to it. */
  private static String cookies(HttpResponse<String> response) {
    String set =
        response.headers().allValues("Set-Cookie").stream()
            .map(c -> c.split(";")[0])
            .collect(Collectors.joining("; "));
    String sent = response.request().headers().firstValue("Cookie").orElse("");
    return sent.isEmpty() ? set : set.isEmpty() ? sent : sent + "; " + set;
  }

  private static String form(Map<String, String> fields) {
    return fields.entrySet().stream()
        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }

  private HttpResponse<String> send(
      String method, String path, String cookies, String type, String body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(fixture.base() + path))
            .method(
                method,
                method.equals("GET")
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (type != null) {
      request.header("Content-Type", type);
    }
    if (cookies != null && !cookies.isEmpty()) {
      request.header("Cookie", cookies);
    }
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
