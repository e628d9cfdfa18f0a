package dev.flipper.workflow.ui;

import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * CSRF protection by a token bound to the browser's session: the token is an HMAC, under a key this
 * process drew at random, of the sign-in session's id ({@link Auth#SESSION_COOKIE}), or before
 * sign-in and with sign-in off of a random browser id in the {@code flipper-csrf} cookie (both
 * HttpOnly, SameSite=Strict). Pages write it into their forms; a POST passes only when its {@code
 * csrf} form field or {@code X-CSRF-Token} header is that token. Another site can make the browser
 * send the cookies but can read neither them nor a page, and a token of another session (or an
 * empty one) never matches. Thread-safe.
 */
final class Csrf {
  static final String COOKIE = "flipper-csrf";
  static final String FIELD = "csrf";
  static final String HEADER = "X-CSRF-Token";
  private static final String NEW_BINDING = "flipper.csrf.binding";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Cookies cookies;
  private final SecretKeySpec key;

  Csrf(Cookies cookies) {
    this.cookies = cookies;
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    this.key = new SecretKeySpec(secret, "HmacSHA256");
  }

  /** The request's token; sets a browser id cookie first if there is no session to bind to. */
  String token(Context ctx) {
    String binding = binding(ctx);
    if (binding == null) {
      binding = ctx.attribute(NEW_BINDING); // one new browser id per answer
    }
    if (binding == null) {
      byte[] bytes = new byte[24];
      RANDOM.nextBytes(bytes);
      String browser = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      cookies.set(ctx, COOKIE, browser, null);
      binding = "browser:" + browser;
      ctx.attribute(NEW_BINDING, binding);
    }
    return mac(binding);
  }

  /** Refuses with 403 a request whose field or header is not its session's token. */
  void check(Context ctx) {
    String binding = binding(ctx);
    String sent = ctx.header(HEADER);
    if (sent == null
        && String.valueOf(ctx.contentType()).startsWith("application/x-www-form-urlencoded")) {
      sent = ctx.formParam(FIELD);
    }
    if (binding == null
        || sent == null
        || sent.isEmpty()
        || !MessageDigest.isEqual(
            mac(binding).getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8))) {
      throw new ForbiddenResponse(
          "missing or wrong CSRF token: send the token of this session (in every form of its"
              + " pages; GET /api/csrf gives it) as the '"
              + FIELD
              + "' form field or the "
              + HEADER
              + " header");
    }
  }

  /** What the token is bound to: the sign-in session, else the browser id; null = neither. */
  private static String binding(Context ctx) {
    String session = ctx.cookie(Auth.SESSION_COOKIE);
    if (session != null && session.length() >= 20) {
      return "session:" + session;
    }
    String browser = ctx.cookie(COOKIE);
    return browser != null && browser.length() >= 20 ? "browser:" + browser : null;
  }

  private String mac(String binding) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(mac.doFinal(binding.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JVM", e);
    }
  }
}
