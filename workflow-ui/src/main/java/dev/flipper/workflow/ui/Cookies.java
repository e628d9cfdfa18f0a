package dev.flipper.workflow.ui;

import io.javalin.http.Context;
import java.util.List;

/**
 * The UI's cookies: HttpOnly, SameSite=Strict, and Secure when the browser reached the UI over
 * HTTPS, directly or through a TLS proxy of {@code ui.trustedProxies} (whose {@code
 * X-Forwarded-Proto} is believed; anyone else's is ignored, so a plain-HTTP client cannot make the
 * UI believe otherwise). Immutable and thread-safe.
 */
final class Cookies {
  private final List<String> trustedProxies;

  Cookies(List<String> trustedProxies) {
    this.trustedProxies = List.copyOf(trustedProxies);
  }

  /** Sets the cookie; {@code maxAgeSeconds} null = until the browser closes, 0 = delete it. */
  void set(Context ctx, String name, String value, Long maxAgeSeconds) {
    ctx.res()
        .addHeader(
            "Set-Cookie",
            name
                + "="
                + value
                + "; Path=/; HttpOnly; SameSite=Strict"
                + (maxAgeSeconds == null ? "" : "; Max-Age=" + maxAgeSeconds)
                + (overTls(ctx) ? "; Secure" : ""));
  }

  /** Whether the browser's connection is HTTPS. */
  boolean overTls(Context ctx) {
    if ("https".equals(ctx.scheme())) {
      return true;
    }
    String forwarded = ctx.header("X-Forwarded-Proto");
    return forwarded != null
        && trustedProxies.contains(ctx.ip())
        && forwarded.split(",")[0].strip().equalsIgnoreCase("https");
  }
}
