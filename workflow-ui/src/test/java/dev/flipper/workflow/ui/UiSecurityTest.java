package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * The UI's defences over HTTP (docs/ui.md "Security"): a foreign Host header refused before any
 * page or action (DNS rebinding), sign-in attempts limited per name and address and password checks
 * at once capped, redirects after sign-in only to local paths, CSRF tokens bound to the session,
 * Secure cookies only over HTTPS as a trusted proxy says, the security headers on every answer.
 */
class UiSecurityTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Pattern FORM_TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
  private static final String FORM = "application/x-www-form-urlencoded";
  private static final String ALICE_HASH = BCrypt.hashpw("alice-pw", BCrypt.gensalt(4));
  private UiFixture fixture;

  @AfterEach
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private static UiAuth signInOn(List<String> trustedProxies) {
    return new UiAuth(
        List.of(new UiAuth.User("alice", ALICE_HASH, "operator")), "", trustedProxies, false);
  }

  @Test
  void foreignHostIsRefusedBeforeAnyPageOrActionWithSignInOff() throws Exception {
    fixture = new UiFixture().seed();
    int port = fixture.ui.port();
    List<Token> before = tokens();

    String page = raw("GET / HTTP/1.1\r\nHost: evil.example:" + port + "\r\n");
    String action =
        raw(
            "POST /api/actions/start HTTP/1.1\r\nHost: evil.example:"
                + port
                + "\r\nContent-Type: application/json\r\nContent-Length: 19\r\n",
            "{\"workflow\":\"etl\"}\n");
    String staticFile = raw("GET /static/ui.js HTTP/1.1\r\nHost: rebound.example\r\n");

    assertThat(List.of(page, action, staticFile))
        .allSatisfy(r -> assertThat(r).startsWith("HTTP/1.1 421").contains("ui.allowedHosts"));
    assertThat(page).doesNotContain("etl");
    assertThat(tokens()).isEqualTo(before);
    for (String host : List.of("localhost", "127.0.0.1", "[::1]", "LOCALHOST")) {
      assertThat(raw("GET /api/workflows HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n"))
          .as(host)
          .startsWith("HTTP/1.1 200")
          .contains("etl");
    }
    assertThat(raw("GET / HTTP/1.1\r\nHost: localhost:1\r\n"))
        .as("a loopback name on another port is another site")
        .startsWith("HTTP/1.1 421");
  }

  @Test
  void foreignHostIsRefusedWithSignInOnAndConfiguredHostsAreAnswered() throws Exception {
    fixture =
        new UiFixture(
                signInOn(List.of())
                    .withHosts("https://flipper.example.com", List.of("ui.internal:8443")))
            .seed();

    assertThat(raw("GET /login HTTP/1.1\r\nHost: evil.example\r\n")).startsWith("HTTP/1.1 421");
    assertThat(raw("GET /login HTTP/1.1\r\nHost: ui.internal:9999\r\n")).startsWith("HTTP/1.1 421");
    assertThat(raw("GET /login HTTP/1.1\r\nHost: flipper.example.com\r\n"))
        .startsWith("HTTP/1.1 200");
    assertThat(raw("GET /login HTTP/1.1\r\nHost: ui.internal:8443\r\n")).startsWith("HTTP/1.1 200");
  }

  @Test
  void afterFiveWrongPasswordsTheNameAndTheAddressMustWait() throws Exception {
    fixture = new UiFixture(signInOn(List.of())).seed();
    for (int i = 0; i < SignInThrottle.FREE_FAILURES; i++) {
      assertThat(signIn("alice", "guess-" + i, "/").statusCode()).isEqualTo(401);
    }

    HttpResponse<String> right = signIn("alice", "alice-pw", "/");
    HttpResponse<String> otherName = signIn("bob", "guess", "/");

    assertThat(right.statusCode()).as("even the right password waits").isEqualTo(429);
    assertThat(right.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(right.body()).contains("too many sign-in attempts");
    assertThat(right.headers().allValues("Set-Cookie"))
        .noneMatch(c -> c.startsWith(Auth.SESSION_COOKIE));
    assertThat(otherName.statusCode()).as("the same address waits too").isEqualTo(429);
  }

  @Test
  void passwordChecksBeyondTheCapAreAnswered429AtOnce() throws Exception {
    fixture =
        new UiFixture(
                new UiAuth(
                    List.of(new UiAuth.User("alice", BCrypt.hashpw("pw", BCrypt.gensalt(12)))),
                    "",
                    List.of("127.0.0.1"),
                    false))
            .seed();
    int attempts = Auth.HASHING_SLOTS + 3;
    ExecutorService pool = Executors.newFixedThreadPool(attempts);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Integer>> answers = new ArrayList<>();
    try {
      for (int i = 0; i < attempts; i++) {
        String client = "10.0.0." + i; // each from its own address (through the proxy), own name
        String name = "user-" + i;
        Callable<Integer> attempt =
            () -> {
              go.await();
              return signIn(name, "guess", "/", "X-Forwarded-For", client).statusCode();
            };
        answers.add(pool.submit(attempt));
      }
      go.countDown();
      List<Integer> statuses = new ArrayList<>();
      for (Future<Integer> answer : answers) {
        statuses.add(answer.get());
      }
      assertThat(statuses).containsOnly(401, 429).contains(429);
      assertThat(statuses.stream().filter(s -> s == 401).count())
          .as("not all were checked at once")
          .isLessThan(attempts);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void unknownNamesAreCheckedAgainstAHashOfTheSameCost() {
    assertThat(Auth.dummyHash(List.of(new UiAuth.User("alice", ALICE_HASH)))).startsWith("$2a$04$");
    assertThat(
            Auth.dummyHash(
                List.of(
                    new UiAuth.User("alice", ALICE_HASH),
                    new UiAuth.User("bob", BCrypt.hashpw("x", BCrypt.gensalt("$2b", 6))))))
        .startsWith("$2b$06$");
  }

  @Test
  void signInGoesOnToLocalPathsOnly() throws Exception {
    fixture = new UiFixture(signInOn(List.of())).seed();
    Map<String, String> expected =
        Map.of(
            "/\t/evil.example", "/",
            "/%09/evil.example", "/",
            "//evil.example", "/",
            "/%2F/evil.example", "/",
            "/\\evil.example", "/",
            "/workflows/etl?x=1", "/workflows/etl?x=1");
    for (Map.Entry<String, String> next : expected.entrySet()) {
      HttpResponse<String> signedIn = signIn("alice", "alice-pw", next.getKey());
      assertThat(signedIn.headers().firstValue("Location"))
          .as(next.getKey())
          .hasValue(next.getValue());
    }
    HttpResponse<String> form = get("/login?next=/%09/evil.example", null);
    assertThat(form.body()).contains("name=\"next\" value=\"/\"");
  }

  @Test
  void emptyOrForeignCsrfTokensAreRefused() throws Exception {
    fixture = new UiFixture().seed();
    List<Token> before = tokens();
    String pause = "workflow=etl&instance=" + fixture.running + "&csrf=";

    HttpResponse<String> empty =
        post("/actions/pause", pause, Csrf.COOKIE + "=", FORM, Map.of(Csrf.HEADER, ""));
    HttpResponse<String> emptyField =
        post("/actions/pause", pause, Csrf.COOKIE + "=", FORM, Map.of());
    HttpResponse<String> mine = get("/workflows/etl", null);
    HttpResponse<String> theirs = get("/workflows/etl", null);
    HttpResponse<String> foreign =
        post("/actions/pause", pause + token(theirs), cookie(mine), FORM, Map.of());

    assertThat(List.of(empty, emptyField, foreign))
        .allSatisfy(r -> assertThat(r.statusCode()).as(r.body()).isEqualTo(403));
    assertThat(tokens()).isEqualTo(before);
    assertThat(
            post("/actions/pause", pause + token(mine), cookie(mine), FORM, Map.of()).statusCode())
        .isEqualTo(200);
  }

  @Test
  void aSignedInSessionRefusesATokenPlantedWithAnotherBrowsersCookie() throws Exception {
    fixture = new UiFixture(signInOn(List.of())).seed();
    HttpResponse<String> mallory = get("/login", null); // a valid pair of Mallory's own
    String alice = sessionCookie(signIn("alice", "alice-pw", "/"));
    List<Token> before = tokens();

    HttpResponse<String> planted =
        post(
            "/api/actions/pause",
            "{\"workflow\":\"etl\",\"instance\":\"" + fixture.running + "\"}",
            alice + "; " + cookie(mallory),
            "application/json",
            Map.of(Csrf.HEADER, token(mallory)));
    String own =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(fixture.base() + "/api/csrf"))
                    .header("Cookie", alice)
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();

    assertThat(planted.statusCode()).as(planted.body()).isEqualTo(403);
    assertThat(tokens()).isEqualTo(before);
    assertThat(own).doesNotContain(token(mallory));
  }

  @Test
  void cookiesAreSecureOnlyThroughATrustedTlsProxy() throws Exception {
    fixture = new UiFixture(signInOn(List.of("127.0.0.1"))).seed();
    String viaProxy =
        sessionCookieHeader(signIn("alice", "alice-pw", "/", "X-Forwarded-Proto", "https"));
    String plain = sessionCookieHeader(signIn("alice", "alice-pw", "/"));
    fixture.close();
    fixture = new UiFixture(signInOn(List.of("10.9.9.9"))).seed();
    String untrusted =
        sessionCookieHeader(signIn("alice", "alice-pw", "/", "X-Forwarded-Proto", "https"));

    assertThat(viaProxy).contains("; Secure").contains("HttpOnly").contains("SameSite=Strict");
    assertThat(plain).doesNotContain("Secure").contains("HttpOnly");
    assertThat(untrusted).doesNotContain("Secure");
  }

  @Test
  void everyAnswerCarriesTheSecurityHeaders() throws Exception {
    fixture = new UiFixture().seed();
    for (String path :
        List.of("/", "/workflows/etl", "/api/workflows", "/static/ui.css", "/no/such/page")) {
      HttpResponse<String> answer = get(path, null);
      assertThat(answer.headers().firstValue("Content-Security-Policy"))
          .as(path)
          .hasValue(SecurityHeaders.CONTENT_SECURITY_POLICY);
      assertThat(answer.headers().firstValue("X-Frame-Options")).as(path).hasValue("DENY");
      assertThat(answer.headers().firstValue("X-Content-Type-Options"))
          .as(path)
          .hasValue("nosniff");
      assertThat(answer.headers().firstValue("Referrer-Policy")).as(path).hasValue("same-origin");
    }
    assertThat(SecurityHeaders.CONTENT_SECURITY_POLICY)
        .contains("script-src 'self'")
        .contains("style-src 'self'")
        .contains("frame-ancestors 'none'")
        .doesNotContain("unsafe-inline");
  }

  private List<Token> tokens() {
    return fixture.client.query(Query.prefix("/"));
  }

  /** Signs in from a login form of its own; extra headers as name, value pairs. */
  private HttpResponse<String> signIn(String name, String password, String next, String... headers)
      throws IOException, InterruptedException {
    HttpResponse<String> login = get("/login", null);
    Map<String, String> extra = new java.util.LinkedHashMap<>();
    for (int i = 0; i + 1 < headers.length; i += 2) {
      extra.put(headers[i], headers[i + 1]);
    }
    String body =
        Map.of("csrf", token(login), "next", next, "name", name, "password", password)
            .entrySet()
            .stream()
            .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    return post("/login", body, cookie(login), FORM, extra);
  }

  private static String token(HttpResponse<String> page) {
    Matcher form = FORM_TOKEN.matcher(page.body());
    assertThat(form.find()).as(page.body()).isTrue();
    return form.group(1);
  }

  /** The browser id cookie a page set, as a Cookie header. */
  private static String cookie(HttpResponse<String> page) {
    return page.headers().allValues("Set-Cookie").stream()
        .filter(c -> c.startsWith(Csrf.COOKIE + "="))
        .map(c -> c.split(";")[0])
        .findFirst()
        .orElseThrow();
  }

  private static String sessionCookieHeader(HttpResponse<String> signedIn) {
    assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(302);
    return signedIn.headers().allValues("Set-Cookie").stream()
        .filter(c -> c.startsWith(Auth.SESSION_COOKIE + "="))
        .findFirst()
        .orElseThrow();
  }

  private static String sessionCookie(HttpResponse<String> signedIn) {
    return sessionCookieHeader(signedIn).split(";")[0];
  }

  private HttpResponse<String> get(String path, String cookies)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(fixture.base() + path));
    if (cookies != null) {
      request.header("Cookie", cookies);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(
      String path, String body, String cookies, String type, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(fixture.base() + path))
            .header("Content-Type", type)
            .header("Cookie", cookies)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A request written by hand (the JDK's client will not send another Host): the head's lines, then
   * the body; answers the whole response as text.
   */
  private String raw(String head, String... body) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", fixture.ui.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          (head + "Connection: close\r\n\r\n" + String.join("", body))
              .getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
