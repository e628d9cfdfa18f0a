package dev.flipper.workflow.ui;

import io.javalin.http.Context;

/**
 * The headers every answer carries: a strict Content-Security-Policy (scripts, styles and images
 * only from the UI itself, no inline script or style, no framing, forms only to the UI), and the
 * older X-Frame-Options, X-Content-Type-Options and Referrer-Policy. The templates therefore have
 * no inline script, event handler or style attribute: all of that is in the static files.
 */
final class SecurityHeaders {
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

  private SecurityHeaders() {}

  static void apply(Context ctx) {
    ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "same-origin");
  }
}
