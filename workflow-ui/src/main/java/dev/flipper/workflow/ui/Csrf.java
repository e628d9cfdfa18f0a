package dev.flipper.workflow.ui;

import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * CSRF protection by double-submit cookie: every page sets a random token in the {@code
 * flipper-csrf} cookie (HttpOnly, SameSite=Strict, Secure over https) and writes the same token
 * into its forms; a POST passes only when its {@code csrf} form field or {@code X-CSRF-Token}
 * header equals the cookie. Another site can make the browser send the cookie but can read neither
 * it nor the page, so it cannot supply the matching field. Stateless and thread-safe.
 */
final class Csrf {
  static final String COOKIE = "flipper-csrf";
  static final String FIELD = "csrf";
  static final String HEADER = "X-CSRF-Token";
  private static final SecureRandom RANDOM = new SecureRandom();

  /** The request's token, from its cookie, or a new one set as the cookie. */
  String token(Context ctx) {
    String token = ctx.cookie(COOKIE);
    if (token == null || token.length() < 20) {
      byte[] bytes = new byte[24];
      RANDOM.nextBytes(bytes);
      token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      ctx.header(
          "Set-Cookie",
          COOKIE
              + "="
              + token
              + "; Path=/; HttpOnly; SameSite=Strict"
              + ("https".equals(ctx.scheme()) ? "; Secure" : ""));
    }
    return token;
  }

  /** Refuses with 403 a request whose field or header does not match its cookie. */
  void check(Context ctx) {
    String cookie = ctx.cookie(COOKIE);
    String sent = ctx.header(HEADER);
    if (sent == null
        && String.valueOf(ctx.contentType()).startsWith("application/x-www-form-urlencoded")) {
      sent = ctx.formParam(FIELD);
    }
    if (cookie == null
        || sent == null
        || !MessageDigest.isEqual(
            cookie.getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8))) {
      throw new ForbiddenResponse(
          "missing or wrong CSRF token: send the "
              + COOKIE
              + " cookie's value as the '"
              + FIELD
              + "' form field or the "
              + HEADER
              + " header (GET /api/csrf gives one)");
    }
  }
}
