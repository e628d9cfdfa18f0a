package dev.flipper.admin;

import io.javalin.http.Handler;
import java.util.Objects;

/**
 * An extra GET route a daemon serves on its admin port, next to /health and /metrics (the workers' /logs).
 * Immutable.
 *
 * @param path a Javalin path, e.g. {@code /logs/<path>}
 */
public record AdminRoute(String path, Handler handler) {
  public AdminRoute {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(handler, "handler");
  }
}
