package dev.flipper.admin;

import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.Objects;

/**
 * An extra route a daemon serves on its admin port, next to /health and /metrics (the workers'
 * /logs). Immutable.
 *
 * @param method GET, or DELETE for the workers' log cleanup
 * @param path a Javalin path, e.g. {@code /logs/<path>}
 */
public record AdminRoute(HandlerType method, String path, Handler handler) {
  public AdminRoute {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(handler, "handler");
  }

  /** A GET route. */
  public AdminRoute(String path, Handler handler) {
    this(HandlerType.GET, path, handler);
  }
}
