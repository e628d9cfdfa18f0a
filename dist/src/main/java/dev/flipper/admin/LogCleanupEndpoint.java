package dev.flipper.admin;

import dev.flipper.tls.Role;
import dev.flipper.workflow.worker.exec.LogCleaner;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.util.Map;

/**
 * {@code DELETE /logs/<path>}: deletes job logs a worker wrote, for the cleanup of archived
 * instances: the path of one log (as in an execution record's log URL) or an instance's directory
 * {@code <workflow>/<instance>}. Confined to {@code workers.logDir} ({@link LogCleaner}). 200 with
 * {@code {"path": ..., "deleted": N}} (0 when already gone, so a repeated cleanup is harmless); 400
 * for any other path. Thread-safe.
 */
public final class LogCleanupEndpoint {
  private final LogCleaner cleaner;

  public LogCleanupEndpoint(LogCleaner cleaner) {
    this.cleaner = cleaner;
  }

  public AdminRoute route() {
    return new AdminRoute(HandlerType.DELETE, LogEndpoint.PATH, this::handle)
        .onlyFor(Role.UI, Role.OPERATOR, Role.ADMIN);
  }

  private void handle(Context ctx) throws IOException {
    String path = ctx.pathParam("path");
    try {
      ctx.json(Map.of("path", path, "deleted", cleaner.delete(path)));
    } catch (IllegalArgumentException e) {
      ctx.status(HttpStatus.BAD_REQUEST).result(e.getMessage() + "\n");
    }
  }
}
