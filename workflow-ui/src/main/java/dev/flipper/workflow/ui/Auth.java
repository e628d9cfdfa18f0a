package dev.flipper.workflow.ui;

import dev.flipper.workflow.ui.UiAuth.Role;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.UnauthorizedResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * Sign-in for the UI: who the request is ({@link #authenticate}) from a trusted proxy's header or a
 * session cookie, password checks for the login form, and the operator check of actions. Sessions
 * live in memory (a restart signs everyone out) for {@link #SESSION_LIFETIME}. With sign-in off
 * everyone is an anonymous operator. Thread-safe.
 */
final class Auth {
  static final String SESSION_COOKIE = "flipper-session";
  static final Duration SESSION_LIFETIME = Duration.ofHours(12);
  private static final String PRINCIPAL = "flipper.principal";

  /**
   * Password checks at once at most: BCrypt keeps a core busy, so more sign-ins wait (429) rather
   * than starve the pages and the other daemons of this process.
   */
  static final int HASHING_SLOTS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);

  private static final int DEFAULT_COST = 10;
  private static final Pattern BCRYPT = Pattern.compile("(\\$2[aby])\\$(\\d\\d)\\$");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Who a request is. */
  record Principal(String name, Role role) {}

  private record Session(Principal principal, Instant expires) {}

  private final UiAuth config;
  private final Clock clock;
  private final Cookies cookies;
  private final Map<String, UiAuth.User> users = new HashMap<>();
  private final String dummyHash;
  private final SignInThrottle throttle;
  private final Semaphore hashing = new Semaphore(HASHING_SLOTS);
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  Auth(UiAuth config, Clock clock) {
    this.config = config;
    this.clock = clock;
    this.cookies = new Cookies(config.trustedProxies());
    config.users().forEach(u -> users.put(u.name(), u));
    this.dummyHash = dummyHash(config.users());
    this.throttle = new SignInThrottle(clock);
  }

  UiAuth config() {
    return config;
  }

  Cookies cookies() {
    return cookies;
  }

  boolean enabled() {
    return config.enabled();
  }

  /**
   * Before every request: records who it is, or sends a page request to the login form and answers
   * an API request 401. Static files and the login form are open.
   */
  void authenticate(Context ctx) {
    if (!config.enabled()) {
      ctx.attribute(PRINCIPAL, new Principal("anonymous", Role.OPERATOR));
      return;
    }
    String path = ctx.path();
    if (path.startsWith("/static/") || path.startsWith("/webjars/") || path.equals("/login")) {
      return;
    }
    Optional<Principal> principal = fromProxy(ctx).or(() -> fromSession(ctx));
    if (principal.isPresent()) {
      ctx.attribute(PRINCIPAL, principal.get());
      return;
    }
    if (ctx.method().name().equals("GET") && !path.startsWith("/api/")) {
      String next = path + (ctx.queryString() == null ? "" : "?" + ctx.queryString());
      ctx.redirect("/login?next=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
      ctx.skipRemainingHandlers();
      return;
    }
    throw new UnauthorizedResponse(
        "sign in first: POST /login with name and password, or through the proxy");
  }

  /** The request's user; actions need an operator. */
  Principal principal(Context ctx) {
    Principal principal = ctx.attribute(PRINCIPAL);
    if (principal == null) {
      throw new UnauthorizedResponse("sign in first");
    }
    return principal;
  }

  /**
   * @throws ForbiddenResponse (403) for a viewer
   */
  Principal requireOperator(Context ctx) {
    Principal principal = principal(ctx);
    if (principal.role() != Role.OPERATOR) {
      throw new ForbiddenResponse(
          principal.name() + " is a viewer: actions need the operator role (ui.users)");
    }
    return principal;
  }

  /**
   * Checks the password, unless the name or the client address must still wait after failures
   * ({@link SignInThrottle}) or {@link #HASHING_SLOTS} checks already run; on success starts a
   * session and sets its cookie.
   */
  SignIn signIn(Context ctx, String name, String password) {
    String address = clientAddress(ctx);
    Optional<Duration> wait = throttle.wait(name, address);
    if (wait.isPresent()) {
      return SignIn.retryAfter(wait.get());
    }
    if (!hashing.tryAcquire()) {
      return SignIn.retryAfter(Duration.ofSeconds(1));
    }
    UiAuth.User user = users.get(name == null ? "" : name);
    boolean matches;
    try {
      String hash = user != null ? user.passwordHash() : dummyHash;
      matches = BCrypt.checkpw(password == null ? "" : password, hash) && user != null;
    } finally {
      hashing.release();
    }
    if (!matches) {
      throttle.failed(name, address);
      return SignIn.REFUSED;
    }
    throttle.succeeded(name, address);
    Instant now = clock.instant();
    sessions
        .values()
        .removeIf(s -> !now.isBefore(s.expires())); // sessions never used again go here
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    sessions.put(
        id, new Session(new Principal(name, Role.of(user.role())), now.plus(SESSION_LIFETIME)));
    cookies.set(ctx, SESSION_COOKIE, id, SESSION_LIFETIME.toSeconds());
    return SignIn.SIGNED_IN;
  }

  /**
   * What a sign-in came to.
   *
   * @param retryAfter not null = not checked: try again after this long (429)
   */
  record SignIn(boolean signedIn, Duration retryAfter) {
    static final SignIn SIGNED_IN = new SignIn(true, null);
    static final SignIn REFUSED = new SignIn(false, null);

    static SignIn retryAfter(Duration wait) {
      return new SignIn(false, wait);
    }
  }

  void signOut(Context ctx) {
    String id = ctx.cookie(SESSION_COOKIE);
    if (id != null) {
      sessions.remove(id);
    }
    cookies.set(ctx, SESSION_COOKIE, "", 0L);
  }

  /** The browser's address: a trusted proxy's X-Forwarded-For (its last hop), else the peer. */
  private String clientAddress(Context ctx) {
    String forwarded = ctx.header("X-Forwarded-For");
    if (forwarded == null || !config.trustedProxies().contains(ctx.ip())) {
      return ctx.ip();
    }
    String[] hops = forwarded.split(",");
    return hops[hops.length - 1].strip();
  }

  /**
   * A hash of no password with the algorithm version and cost of the users' hashes (the highest
   * cost), checked when the name is unknown so that a wrong name takes as long as a wrong password.
   */
  static String dummyHash(List<UiAuth.User> users) {
    String prefix = "$2a";
    int cost = -1;
    for (UiAuth.User user : users) {
      Matcher m = BCRYPT.matcher(user.passwordHash());
      if (m.lookingAt() && Integer.parseInt(m.group(2)) > cost) {
        prefix = m.group(1);
        cost = Integer.parseInt(m.group(2));
      }
    }
    cost = cost < 0 ? DEFAULT_COST : cost;
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return BCrypt.hashpw(Base64.getEncoder().encodeToString(bytes), BCrypt.gensalt(prefix, cost));
  }

  private Optional<Principal> fromProxy(Context ctx) {
    if (config.trustedUserHeader().isEmpty() || !config.trustedProxies().contains(ctx.ip())) {
      return Optional.empty();
    }
    String name = ctx.header(config.trustedUserHeader());
    if (name == null || name.isBlank()) {
      return Optional.empty();
    }
    UiAuth.User user = users.get(name);
    Role role = user == null ? Role.VIEWER : Role.of(user.role());
    return Optional.of(new Principal(name, role));
  }

  private Optional<Principal> fromSession(Context ctx) {
    String id = ctx.cookie(SESSION_COOKIE);
    Session session = id == null ? null : sessions.get(id);
    if (session == null) {
      return Optional.empty();
    }
    if (!clock.instant().isBefore(session.expires())) {
      sessions.remove(id);
      return Optional.empty();
    }
    return Optional.of(session.principal());
  }
}
