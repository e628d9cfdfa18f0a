package dev.flipper.admin;

import dev.flipper.tls.Role;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.Objects;
import java.util.Set;

/**
 * An extra route a daemon serves on its admin port, next to /health and /metrics (the workers'
 * /logs). Immutable.
 *
 * @param method GET, or DELETE for the workers' log cleanup
 * @param path a Javalin path, e.g. {@code /logs/<path>}
 * @param roles with TLS, the roles whose certificates may call it; empty: any certificate of the
 *     deployment's authority
 */
public record AdminRoute(HandlerType method, String path, Handler handler, Set<Role> roles) {
  public AdminRoute {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(handler, "handler");
    roles = Set.copyOf(roles);
  }

  /** A route any certificate may call. */
  public AdminRoute(HandlerType method, String path, Handler handler) {
    this(method, path, handler, Set.of());
  }

  /** A GET route. */
  public AdminRoute(String path, Handler handler) {
    this(HandlerType.GET, path, handler);
  }

  /** This route, callable with TLS only by certificates of {@code allowed}. */
  public AdminRoute onlyFor(Role... allowed) {
    return new AdminRoute(method, path, handler, Set.of(allowed));
  }
}
