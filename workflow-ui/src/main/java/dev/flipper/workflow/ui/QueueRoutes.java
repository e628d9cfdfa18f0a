package dev.flipper.workflow.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.client.QueueClientException;
import dev.flipper.queue.client.QueueUnavailableException;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.workflow.ui.queue.QueueActions;
import dev.flipper.workflow.ui.queue.QueueDashboard;
import dev.flipper.workflow.ui.queue.QueueLinks;
import dev.flipper.workflow.ui.queue.QueueServers;
import dev.flipper.workflow.ui.queue.QueueViews;
import dev.flipper.workflow.ui.queue.RateLimits;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The queue dashboard's routes on the {@link UiServer} (docs/ui.md): {@code /queues}, {@code
 * /queues/<queue>} (counts and a paged scan), {@code /queue-job?descriptor=} (lookup), each with
 * its JSON under {@code /api}, and the queue actions {@code POST /actions/queue/<op>} (form,
 * confirmation for destructive ones) and {@code POST /api/actions/queue/<op>} (JSON), behind the
 * same CSRF check and operator role as the workflow actions. Thread-safe.
 */
final class QueueRoutes {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String JSON = "application/json; charset=utf-8";

  private final QueueDashboard dashboard;
  private final QueueActions actions;

  QueueRoutes(QueueDashboard dashboard) {
    this.dashboard = dashboard;
    this.actions = new QueueActions(dashboard);
  }

  /** The dashboard without queue servers: its pages say how to configure them. */
  static QueueRoutes none() {
    return new QueueRoutes(
        new QueueDashboard(
            QueueServers.NONE, RateLimits.NONE, null, Runnable::run, Clock.systemUTC()));
  }

  /** The dashboard over {@code servers}, connecting with mutual TLS as {@code tls} unless null. */
  static QueueRoutes over(
      QueueServers servers,
      RateLimits rateLimits,
      Executor executor,
      Clock clock,
      TlsIdentity tls) {
    return new QueueRoutes(
        new QueueDashboard(servers, rateLimits, servers.client(tls), executor, clock));
  }

  QueueDashboard dashboard() {
    return dashboard;
  }

  void register(Javalin app, UiServer server) {
    server.pageAndApi(app, "/queues", "queues", ctx -> dashboard.queues(server.safeBanner()));
    server.pageAndApi(
        app,
        "/queues/{queue}",
        "queue",
        ctx ->
            dashboard.queue(
                server.safeBanner(),
                ctx.pathParam("queue"),
                ctx.queryParam("state"),
                priority(ctx.queryParam("priority")),
                "true".equals(ctx.queryParam("future")),
                ctx.queryParam("filter"),
                ctx.queryParam("continuation"),
                ctx.queryParamAsClass("limit", Integer.class).getOrDefault(50)));
    server.pageAndApi(
        app,
        "/queue-job",
        "queue-job",
        ctx -> dashboard.job(server.safeBanner(), ctx.queryParam("descriptor")));
    app.post("/actions/queue/{op}", ctx -> actionForm(ctx, server));
    app.post("/api/actions/queue/{op}", ctx -> actionApi(ctx, server));
  }

  /**
   * A form's action: a destructive one without {@code confirm=yes} answers its question and changes
   * nothing.
   */
  private void actionForm(Context ctx, UiServer server) {
    server.csrf.check(ctx);
    server.auth.requireOperator(ctx);
    String op = ctx.pathParam("op");
    QueueActions.Request request = null;
    String question = null;
    QueueActions.Result result = null;
    String refusal = null;
    try {
      request =
          new QueueActions.Request(
              ctx.formParam("queue"),
              ctx.formParam("job"),
              ctx.formParam("state"),
              priority(ctx.formParam("priority")),
              ctx.formParam("filter"));
      if (QueueActions.DESTRUCTIVE.contains(op) && !"yes".equals(ctx.formParam("confirm"))) {
        question = actions.question(op, request);
      } else {
        result = actions.run(op, request, server.user(ctx));
      }
    } catch (RuntimeException e) {
      UiServer.Failure failure = server.failure(e);
      ctx.status(failure.status());
      refusal = failure.message();
    }
    QueueViews.ActionPage page =
        new QueueViews.ActionPage(
            server.safeBanner(), op, request, back(ctx), question, result, refusal);
    ctx.html(server.render("queue-action", Map.of("page", page, "csrf", server.csrf.token(ctx))));
  }

  /**
   * The JSON API's action: the body is a {@link QueueActions.Request} as JSON; the answer what
   * changed.
   */
  private void actionApi(Context ctx, UiServer server) throws IOException {
    server.csrf.check(ctx);
    server.auth.requireOperator(ctx);
    try {
      QueueActions.Request request;
      try {
        request =
            ctx.body().isBlank()
                ? new QueueActions.Request(null, null, null, null, null)
                : MAPPER.readValue(ctx.body(), QueueActions.Request.class);
      } catch (JsonProcessingException e) {
        throw new UiServer.BadRequestException(
            "the body must be JSON {\"queue\", \"job\", \"state\", \"priority\","
                + " \"filter\"}: "
                + e.getOriginalMessage());
      }
      QueueActions.Result result = actions.run(ctx.pathParam("op"), request, server.user(ctx));
      ctx.contentType(JSON).result(MAPPER.writeValueAsString(result));
    } catch (RuntimeException e) {
      UiServer.Failure failure = server.failure(e);
      ctx.status(failure.status())
          .contentType(JSON)
          .result(MAPPER.writeValueAsString(Map.of("error", failure.message())));
    }
  }

  /**
   * Where the action's page links back to: a retried job's page, else the queue, else the job's
   * queue, else the dashboard.
   */
  private static String back(Context ctx) {
    String job = ctx.formParam("job");
    if ("retry-job".equals(ctx.pathParam("op")) && job != null && !job.isBlank()) {
      return QueueLinks.job(job);
    }
    String queue = ctx.formParam("queue");
    if (queue != null && !queue.isBlank()) {
      return QueueLinks.queue(queue);
    }
    int colon = job == null ? -1 : job.indexOf(':');
    return colon > 0 ? QueueLinks.queue(job.substring(0, colon)) : QueueLinks.queues();
  }

  private static Integer priority(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      int priority = Integer.parseInt(value.trim());
      if (priority < 1) {
        throw new NumberFormatException();
      }
      return priority;
    } catch (NumberFormatException e) {
      throw new UiServer.BadRequestException(
          "'priority' must be a number >= 1 (1 is the highest), got '" + value + "'");
    }
  }

  /** The status and message of a queue failure; null for other failures. */
  static UiServer.Failure failure(RuntimeException e) {
    if (e instanceof QueueDashboard.JobNotFoundException
        || e instanceof QueueActions.UnknownActionException) {
      return new UiServer.Failure(HttpStatus.NOT_FOUND, e.getMessage(), null);
    }
    if (e instanceof QueueUnavailableException) {
      return new UiServer.Failure(
          HttpStatus.SERVICE_UNAVAILABLE, "queue servers unreachable: " + e.getMessage(), null);
    }
    if (e instanceof QueueClientException q) {
      ErrorCode code = q.errorCode();
      HttpStatus status =
          code == ErrorCode.QUEUE_NOT_FOUND
              ? HttpStatus.NOT_FOUND
              : code == ErrorCode.QUEUE_NAME_INVALID
                      || code == ErrorCode.QUEUE_NAME_TOO_LONG
                      || code == ErrorCode.PRIORITY_NOT_SUPPORTED
                      || code == ErrorCode.CONTINUATION_INVALID
                  ? HttpStatus.BAD_REQUEST
                  : HttpStatus.BAD_GATEWAY;
      return new UiServer.Failure(status, "queue server: " + code + ": " + e.getMessage(), null);
    }
    if (e instanceof QueueException) {
      return new UiServer.Failure(HttpStatus.BAD_REQUEST, e.getMessage(), null);
    }
    return null;
  }
}
