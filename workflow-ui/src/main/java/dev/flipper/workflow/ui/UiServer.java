package dev.flipper.workflow.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.token.TokenException;
import dev.flipper.workflow.control.ActionPreview;
import dev.flipper.workflow.control.ControlRefusedException;
import dev.flipper.workflow.control.ControlResult;
import dev.flipper.workflow.control.WorkflowControl;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.fleet.WorkerLogUrls;
import dev.flipper.workflow.tokens.DamagedTokenException;
import dev.flipper.workflow.ui.view.ActionPage;
import dev.flipper.workflow.ui.view.Banner;
import dev.flipper.workflow.ui.view.LogChunk;
import dev.flipper.workflow.ui.view.LogPage;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UI's HTTP server: every page at its path and the same data as JSON under {@code /api}
 * (docs/ui.md), static files under {@code /static/} and the JS libraries from their WebJars under
 * {@code /webjars/}. Pages are rendered by compiled jte templates, which HTML-escape every value.
 * Actions are {@code POST /actions/<op>} (forms, with a confirmation page for destructive ones) and
 * {@code POST /api/actions/<op>} (JSON), both behind the {@link Csrf} check. The queue dashboard's
 * routes are {@link QueueRoutes}. Thread-safe.
 */
final class UiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(UiServer.class);
  private static final String JSON = "application/json; charset=utf-8";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String LOGS = "/executions/{execution}/logs/{stream}";

  private final Views views;
  private final Actions actions;
  final Auth auth;
  final Csrf csrf;
  private final UiAuth access;
  private final LogReader logs;
  private final WorkerLogUrls workerLogs;
  private final String masterAddress;
  private final QueueRoutes queues;
  private final TemplateEngine templates =
      TemplateEngine.createPrecompiled(
          null,
          ContentType.Html,
          UiServer.class.getClassLoader(),
          "dev.flipper.workflow.ui.templates");
  private Javalin app;

  /**
   * @param masterAddress {@code host:port} of the master, for the "master unreachable" banner
   */
  UiServer(Views views, Actions actions, Auth auth, String masterAddress) {
    this(views, actions, auth, masterAddress, null, null);
  }

  /**
   * @param queues the queue dashboard's routes; null = its pages say that no queue server is
   *     configured
   * @param tls the UI's identity for the workers' log ports when they speak mutual TLS; null: HTTP
   */
  UiServer(
      Views views,
      Actions actions,
      Auth auth,
      String masterAddress,
      QueueRoutes queues,
      TlsIdentity tls) {
    this.logs = new LogReader(tls);
    this.views = views;
    this.access = auth.config();
    this.csrf = new Csrf(auth.cookies());
    this.workerLogs = new WorkerLogUrls(views.master());
    this.actions = actions;
    this.auth = auth;
    this.masterAddress = masterAddress;
    this.queues = queues != null ? queues : QueueRoutes.none();
  }

  synchronized int start(String bindAddress, int port) {
    QueuedThreadPool threads = new QueuedThreadPool(16, 2);
    threads.setName("ui-http");
    app =
        Javalin.create(
            config -> {
              config.showJavalinBanner = false;
              config.startupWatcherEnabled = false;
              config.jetty.threadPool = threads;
              config.router.ignoreTrailingSlashes = true;
              config.staticFiles.add(
                  files -> {
                    files.hostedPath = "/static";
                    files.directory = "/flipper-ui";
                    files.location = Location.CLASSPATH;
                  });
              config.staticFiles.enableWebjars();
            });
    app.before(SecurityHeaders::apply);
    app.before(new HostCheck(access, bindAddress)::check);
    routes(app);
    app.start(bindAddress, port);
    return app.port();
  }

  private void routes(Javalin app) {
    String workflow = "/workflows/{workflow}";
    String instance = workflow + "/instances/{instance}";
    String job = instance + "/jobs/{job}";

    app.before(auth::authenticate);
    app.get(
        "/login", ctx -> ctx.html(render("login", loginModel(ctx, ctx.queryParam("next"), null))));
    app.post("/login", this::login);
    app.post(
        "/logout",
        ctx -> {
          csrf.check(ctx);
          auth.signOut(ctx);
          ctx.redirect("/login");
        });
    page(app, "/", "workflows", ctx -> views.workflows());
    pageAndApi(app, "/workflows", "workflows", ctx -> views.workflows());
    pageAndApi(
        app,
        workflow,
        "workflow",
        ctx -> views.workflow(ctx.pathParam("workflow"), runFilters(ctx, RunFilters.RUN_STATUSES)));
    api(
        app,
        "/api" + workflow + "/runs",
        ctx -> views.runs(ctx.pathParam("workflow"), runFilters(ctx, RunFilters.RUN_STATUSES)));
    pageAndApi(
        app,
        workflow + "/grid",
        "grid",
        ctx -> views.grid(ctx.pathParam("workflow"), ctx.queryParam("runs")));
    pageAndApi(
        app,
        workflow + "/jobs/{job}",
        "job-history",
        ctx ->
            views.jobHistory(
                ctx.pathParam("workflow"),
                ctx.pathParam("job"),
                runFilters(ctx, RunFilters.EXECUTION_STATUSES)));
    pageAndApi(
        app,
        instance,
        "instance",
        ctx -> views.instance(ctx.pathParam("workflow"), ctx.pathParam("instance")));
    pageAndApi(
        app,
        job,
        "job",
        ctx ->
            views.job(ctx.pathParam("workflow"), ctx.pathParam("instance"), ctx.pathParam("job")));
    page(app, job + LOGS, "log", this::logPage);
    api(app, "/api" + job + LOGS, this::logChunk);
    app.get("/api" + job + LOGS + "/download", this::download);
    pageAndApi(app, "/schedules", "schedules", ctx -> views.schedules());
    pageAndApi(app, "/workers", "workers", ctx -> views.workers());
    pageAndApi(
        app,
        "/tokens",
        "tokens",
        ctx -> views.tokens(ctx.queryParamAsClass("path", String.class).getOrDefault("/")));
    pageAndApi(app, "/token", "token", ctx -> views.token(required(ctx, "name")));
    api(app, "/api/status", ctx -> views.banner());
    api(app, "/api/csrf", ctx -> new Token(csrf.token(ctx), Csrf.HEADER));
    api(
        app,
        "/api/me",
        ctx ->
            new Me(
                auth.principal(ctx).name(),
                auth.principal(ctx).role().name().toLowerCase(java.util.Locale.ROOT),
                auth.enabled()));
    app.post("/actions/{op}", this::actionForm);
    app.post("/api/actions/{op}", this::actionApi);
    queues.register(app, this);
  }

  /**
   * A form's action: one that asks first ({@link Actions#asksFirst}) without {@code confirm=yes}
   * answers its confirmation page, listing what it would change; otherwise it runs and the page
   * shows what changed, or why nothing did (with the failure's status). A start that ran goes on to
   * the new instance's page.
   */
  private void actionForm(Context ctx) {
    csrf.check(ctx);
    auth.requireOperator(ctx);
    String op = ctx.pathParam("op");
    String workflow = ctx.formParam("workflow");
    String instance = ctx.formParam("instance");
    List<String> jobs = ctx.formParams("job");
    String back =
        Actions.FLEET.contains(op)
            ? "/workers"
            : Actions.SCHEDULE.contains(op)
                ? "/schedules"
                : instance != null && workflow != null
                    ? Links.instance(workflow, instance)
                    : workflow != null ? Links.workflow(workflow) : "/";
    ControlResult result = null;
    ActionPreview preview = null;
    String refusal = null;
    Integer execution = null;
    Integer generation = null;
    try {
      execution = numberParam(ctx.formParam("execution"), "execution");
      generation = numberParam(ctx.formParam("generation"), "generation");
      Map<String, String> params =
          op.equals("start")
              ? StartParams.parse(ctx.formParams("key"), ctx.formParams("value"))
              : Map.of();
      Actions.Request request =
          new Actions.Request(workflow, instance, jobs, execution, generation, params);
      if (!Actions.asksFirst(op) || "yes".equals(ctx.formParam("confirm"))) {
        result = actions.run(op, request, user(ctx));
        if (op.equals("start") && result.instance().isPresent()) {
          ctx.redirect(Links.instance(workflow, result.instance().get()), HttpStatus.SEE_OTHER);
          return;
        }
      } else if (WorkflowControl.PREVIEWS.contains(op) && instance != null) {
        preview = actions.preview(op, request);
      }
    } catch (RuntimeException e) {
      Failure failure = failure(e);
      ctx.status(failure.status());
      refusal = failure.message();
    }
    ActionPage page =
        new ActionPage(
            safeBanner(),
            op,
            workflow,
            instance,
            jobs,
            execution,
            back,
            result,
            preview,
            refusal,
            generation);
    ctx.html(render("action", Map.of("page", page, "csrf", csrf.token(ctx))));
  }

  /**
   * The JSON API's action: the body is an {@link Actions.Request} as JSON; the answer what changed,
   * or with {@code ?preview=true} what it would change (nothing is changed).
   */
  private void actionApi(Context ctx) throws IOException {
    csrf.check(ctx);
    auth.requireOperator(ctx);
    try {
      Actions.Request request;
      try {
        request =
            ctx.body().isBlank()
                ? new Actions.Request(null, null, List.of(), null, null, Map.of())
                : MAPPER.readValue(ctx.body(), Actions.Request.class);
      } catch (JsonProcessingException e) {
        throw new BadRequestException(
            "the body must be JSON {\"workflow\", \"instance\", \"jobs\": [...],"
                + " \"execution\", \"generation\", \"params\": {...}}: "
                + e.getOriginalMessage());
      }
      String op = ctx.pathParam("op");
      Object answer =
          "true".equals(ctx.queryParam("preview"))
              ? actions.preview(op, request)
              : Actions.json(actions.run(op, request, user(ctx)));
      ctx.contentType(JSON).result(MAPPER.writeValueAsString(answer));
    } catch (RuntimeException e) {
      Failure failure = failure(e);
      ctx.status(failure.status())
          .contentType(JSON)
          .result(MAPPER.writeValueAsString(Map.of("error", failure.message())));
    }
  }

  private static Integer numberParam(String value, String name) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Integer.valueOf(value.trim());
    } catch (NumberFormatException e) {
      throw new BadRequestException("'" + name + "' must be a number, got '" + value + "'");
    }
  }

  /** Who runs an action, as recorded in what it starts. */
  String user(Context ctx) {
    return auth.principal(ctx).name();
  }

  /**
   * The login form's post: a session and on to {@code next} (a path on this site), or the form
   * again, 401.
   */
  private void login(Context ctx) {
    csrf.check(ctx);
    String next = ctx.formParam("next");
    Auth.SignIn signIn = auth.signIn(ctx, ctx.formParam("name"), ctx.formParam("password"));
    if (signIn.signedIn()) {
      ctx.redirect(LocalPath.orRoot(next));
      return;
    }
    if (signIn.retryAfter() != null) {
      long seconds = Math.max(1, (signIn.retryAfter().toMillis() + 999) / 1000);
      ctx.status(HttpStatus.TOO_MANY_REQUESTS)
          .header("Retry-After", Long.toString(seconds))
          .html(
              render(
                  "login",
                  loginModel(
                      ctx, next, "too many sign-in attempts: try again in " + seconds + " s")));
      return;
    }
    ctx.status(HttpStatus.UNAUTHORIZED)
        .html(render("login", loginModel(ctx, next, "wrong name or password")));
  }

  private Map<String, Object> loginModel(Context ctx, String next, String error) {
    Map<String, Object> model = new LinkedHashMap<>();
    model.put("next", LocalPath.orRoot(next));
    model.put("error", error);
    model.put("csrf", csrf.token(ctx));
    return model;
  }

  /** A page at {@code path} and its data as JSON at {@code /api} + {@code path}. */
  void pageAndApi(Javalin app, String path, String template, Function<Context, Object> model) {
    page(app, path, template, model);
    api(app, "/api" + path, model);
  }

  /**
   * A page: the template {@code name}.jte with the model; failures render the error page, and an
   * item whose token does not parse the damage (200: the page works, the item is damaged).
   */
  void page(Javalin app, String path, String name, Function<Context, Object> model) {
    app.get(
        path,
        ctx -> {
          Object page;
          try {
            page = model.apply(ctx);
          } catch (DamagedTokenException e) {
            ctx.html(render("damaged-item", Map.of("banner", safeBanner(), "damaged", e.damage())));
            return;
          } catch (RuntimeException e) {
            Failure failure = failure(e);
            ctx.status(failure.status());
            ctx.html(
                render(
                    "error",
                    Map.of(
                        "banner",
                        failure.banner(),
                        "message",
                        failure.message(),
                        "status",
                        failure.status().getCode())));
            return;
          }
          boolean operator = auth.principal(ctx).role() == UiAuth.Role.OPERATOR;
          ctx.html(
              render(name, Map.of("page", page, "csrf", csrf.token(ctx), "operator", operator)));
        });
  }

  /** A JSON endpoint: the model as JSON, or {@code {"error": ...}} with the failure's status. */
  void api(Javalin app, String path, Function<Context, Object> model) {
    app.get(
        path,
        ctx -> {
          try {
            ctx.contentType(JSON).result(MAPPER.writeValueAsString(model.apply(ctx)));
          } catch (DamagedTokenException e) {
            ctx.contentType(JSON)
                .result(MAPPER.writeValueAsString(Map.of("damaged", List.of(e.damage()))));
          } catch (RuntimeException e) {
            Failure failure = failure(e);
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("error", failure.message());
            error.put("banner", failure.banner());
            ctx.status(failure.status()).contentType(JSON).result(MAPPER.writeValueAsString(error));
          }
        });
  }

  private LogPage logPage(Context ctx) {
    ExecutionDetail execution = execution(ctx);
    String stream = ctx.pathParam("stream");
    String url = logUrl(execution, ctx);
    return new LogPage(
        views.banner(),
        ctx.pathParam("workflow"),
        ctx.pathParam("instance"),
        ctx.pathParam("job"),
        execution.execution(),
        stream,
        execution.running(),
        execution.worker(),
        url);
  }

  private LogChunk logChunk(Context ctx) {
    ExecutionDetail execution = execution(ctx);
    long offset = ctx.queryParamAsClass("offset", Long.class).getOrDefault(0L);
    int max = ctx.queryParamAsClass("max", Integer.class).getOrDefault(64 * 1024);
    LogReader.Part part = logs.read(logUrl(execution, ctx), offset, max);
    return new LogChunk(
        part.offset(), part.nextOffset(), part.size(), part.text(), execution.running());
  }

  private void download(Context ctx) {
    try {
      ExecutionDetail execution = execution(ctx);
      String file =
          ctx.pathParam("job")
              + "."
              + execution.execution()
              + "."
              + ctx.pathParam("stream")
              + ".log";
      ctx.header(
              "Content-Disposition",
              "attachment; filename=\"" + file.replaceAll("[^A-Za-z0-9._-]", "_") + "\"")
          .contentType("text/plain; charset=utf-8")
          .result(logs.open(logUrl(execution, ctx)));
    } catch (RuntimeException e) {
      Failure failure = failure(e);
      ctx.status(failure.status())
          .contentType("text/plain; charset=utf-8")
          .result(failure.message() + "\n");
    }
  }

  private ExecutionDetail execution(Context ctx) {
    int number = ctx.pathParamAsClass("execution", Integer.class).get();
    return views.execution(
        ctx.pathParam("workflow"), ctx.pathParam("instance"), ctx.pathParam("job"), number);
  }

  /**
   * Where to fetch the execution's log, if it points at a known worker: on the address that
   * published its heartbeat (see {@link WorkerLogUrls}).
   */
  private String logUrl(ExecutionDetail execution, Context ctx) {
    String stream = ctx.pathParam("stream");
    String url = execution.logs().get(stream);
    if (url == null) {
      throw new NotFoundException(
          "execution "
              + execution.execution()
              + " has no "
              + stream
              + " log; logs: "
              + execution.logs().keySet()
              + ("DISABLED".equals(execution.command()) ? " (the job is disabled)" : ""));
    }
    return workerLogs.fetchable(url);
  }

  private static RunFilters runFilters(Context ctx, List<String> statuses) {
    return RunFilters.parse(ctx.queryParamMap(), statuses);
  }

  private static String required(Context ctx, String parameter) {
    String value = ctx.queryParam(parameter);
    if (value == null || value.isEmpty()) {
      throw new BadRequestException("query parameter '" + parameter + "' is required");
    }
    return value;
  }

  record Failure(HttpStatus status, String message, Banner banner) {}

  /** {@code GET /api/csrf}: the token to send in {@code header}. */
  record Token(String token, String header) {}

  /**
   * {@code GET /api/me}: who the request is; {@code signIn} false when sign-in is off (anonymous
   * operator).
   */
  record Me(String name, String role, boolean signIn) {}

  Failure failure(RuntimeException e) {
    Failure queueFailure = QueueRoutes.failure(e);
    if (queueFailure != null) {
      return new Failure(queueFailure.status(), queueFailure.message(), safeBanner());
    }
    if (e instanceof NotFoundException) {
      return new Failure(HttpStatus.NOT_FOUND, e.getMessage(), safeBanner());
    }
    if (e instanceof ControlRefusedException || e instanceof DamagedTokenException) {
      return new Failure(HttpStatus.CONFLICT, e.getMessage(), safeBanner());
    }
    if (e instanceof BadRequestException
        || e instanceof IllegalArgumentException
        || e instanceof io.javalin.validation.ValidationException) {
      return new Failure(HttpStatus.BAD_REQUEST, e.getMessage(), safeBanner());
    }
    if (e instanceof WorkerLogUrls.RefusedException) {
      return new Failure(HttpStatus.FORBIDDEN, e.getMessage(), safeBanner());
    }
    if (e instanceof LogReader.LogUnavailableException) {
      return new Failure(HttpStatus.BAD_GATEWAY, e.getMessage(), safeBanner());
    }
    if (e instanceof TokenException) {
      String problem = "master unreachable at " + masterAddress + ": " + e.getMessage();
      return new Failure(HttpStatus.SERVICE_UNAVAILABLE, problem, Banner.unreachable(problem));
    }
    log.warn("UI request failed", e);
    return new Failure(HttpStatus.INTERNAL_SERVER_ERROR, e.toString(), safeBanner());
  }

  /** The banner for an error page; the master's own failure shows in it. */
  Banner safeBanner() {
    try {
      return views.banner();
    } catch (RuntimeException e) {
      return Banner.unreachable("master unreachable at " + masterAddress + ": " + e.getMessage());
    }
  }

  String render(String template, Map<String, Object> params) {
    StringOutput out = new StringOutput();
    templates.render(template + ".jte", params, out);
    return out.toString();
  }

  @Override
  public synchronized void close() {
    if (app != null) {
      app.stop();
      app = null;
    }
  }

  /** A request that lacks or misuses a parameter: 400 with this message. */
  static final class BadRequestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadRequestException(String message) {
      super(message);
    }
  }
}
