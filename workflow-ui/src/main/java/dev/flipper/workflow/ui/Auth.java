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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
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

  /** Checked when the name is unknown, so a wrong name takes as long as a wrong password. */
  private static final String DUMMY_HASH = BCrypt.hashpw("not a password", BCrypt.gensalt());

  private static final SecureRandom RANDOM = new SecureRandom();

  /** Who a request is. */
  record Principal(String name, Role role) {}

  private record Session(Principal principal, Instant expires) {}

  private final UiAuth config;
  private final Clock clock;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  Auth(UiAuth config, Clock clock) {
    this.config = config;
    this.clock = clock;
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

  /** Checks the password; on success starts a session and sets its cookie. */
  boolean signIn(Context ctx, String name, String password) {
    Optional<UiAuth.User> user =
        config.users().stream().filter(u -> u.name().equals(name)).findFirst();
    String hash =
        user.map(UiAuth.User::passwordHash).filter(h -> h.startsWith("$2")).orElse(DUMMY_HASH);
    boolean matches = password != null && BCrypt.checkpw(password, hash) && user.isPresent();
    if (!matches) {
      return false;
    }
    Instant now = clock.instant();
    sessions
        .values()
        .removeIf(s -> !now.isBefore(s.expires())); // sessions never used again go here
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    sessions.put(
        id,
        new Session(new Principal(name, Role.of(user.get().role())), now.plus(SESSION_LIFETIME)));
    ctx.header(
        "Set-Cookie",
        SESSION_COOKIE
            + "="
            + id
            + "; Path=/; HttpOnly; SameSite=Strict; Max-Age="
            + SESSION_LIFETIME.toSeconds()
            + ("https".equals(ctx.scheme()) ? "; Secure" : ""));
    return true;
  }

  void signOut(Context ctx) {
    String id = ctx.cookie(SESSION_COOKIE);
    if (id != null) {
      sessions.remove(id);
    }
    ctx.header("Set-Cookie", SESSION_COOKIE + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
  }

  private Optional<Principal> fromProxy(Context ctx) {
    if (config.trustedUserHeader().isEmpty() || !config.trustedProxies().contains(ctx.ip())) {
      return Optional.empty();
    }
    String name = ctx.header(config.trustedUserHeader());
    if (name == null || name.isBlank()) {
      return Optional.empty();
    }
    Role role =
        config.users().stream()
            .filter(u -> u.name().equals(name))
            .findFirst()
            .map(u -> Role.of(u.role()))
            .orElse(Role.VIEWER);
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
