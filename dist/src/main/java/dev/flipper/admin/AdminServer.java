package dev.flipper.admin;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.admin.metrics.JvmMetrics;
import dev.flipper.admin.metrics.PrometheusExporter;
import dev.flipper.tls.Role;
import dev.flipper.tls.Subject;
import dev.flipper.tls.TlsIdentity;
import io.javalin.Javalin;
import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpStatus;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.StringWriter;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The admin HTTP endpoint of one daemon, on its own port:
 *
 * <ul>
 *   <li>{@code /health}: 200 when every component reports ready, else 503; JSON body with each
 *       component;
 *   <li>{@code /metrics}: the daemon's metrics in Prometheus text format 0.0.4, named the
 *       Prometheus way ({@link PrometheusExporter}), plus JVM and process metrics ({@link
 *       JvmMetrics}); see docs/operations.md;
 *   <li>{@code /stats.txt}: the same metrics as sorted {@code name: value} lines ({@link
 *       StatsText}).
 * </ul>
 *
 * <p>With a {@link TlsIdentity} the port serves HTTPS only to clients with a certificate of the
 * deployment's authority (also {@code /metrics}: give Prometheus one, docs/operations.md), and a
 * route limited to some roles ({@link AdminRoute#onlyFor}) answers others 403, counted as {@code
 * admin.refused.<role>}.
 *
 * <p>Thread-safe. {@link #close()} is idempotent.
 */
public final class AdminServer implements AutoCloseable {
  private final String name;
  private final String host;
  private final int requestedPort;
  private final MetricRegistry registry;
  private final Supplier<Map<String, Boolean>> readiness;
  private final List<AdminRoute> routes;
  private final CollectorRegistry prometheus = new CollectorRegistry();
  private final TlsIdentity tls;
  private Javalin app;

  /**
   * @param name the daemon, e.g. {@code queue}; names threads and the health body
   * @param host the address to bind, e.g. {@code 0.0.0.0}
   * @param port the port to bind; 0 = any free port (see {@link #port()})
   * @param readiness each component's readiness; the daemon is ready when all are true
   */
  public AdminServer(
      String name,
      String host,
      int port,
      MetricRegistry registry,
      Supplier<Map<String, Boolean>> readiness) {
    this(name, host, port, registry, readiness, List.of());
  }

  /**
   * @param routes extra routes of this daemon (the workers' {@code /logs/...})
   */
  public AdminServer(
      String name,
      String host,
      int port,
      MetricRegistry registry,
      Supplier<Map<String, Boolean>> readiness,
      List<AdminRoute> routes) {
    this(name, host, port, registry, readiness, routes, null);
  }

  /**
   * @param tls the daemon's identity: HTTPS with client certificates required; null: plain HTTP
   */
  public AdminServer(
      String name,
      String host,
      int port,
      MetricRegistry registry,
      Supplier<Map<String, Boolean>> readiness,
      List<AdminRoute> routes,
      TlsIdentity tls) {
    this.tls = tls;
    this.routes = List.copyOf(routes);
    this.name = Objects.requireNonNull(name, "name");
    this.host = Objects.requireNonNull(host, "host");
    this.requestedPort = port;
    this.registry = Objects.requireNonNull(registry, "registry");
    this.readiness = Objects.requireNonNull(readiness, "readiness");
    prometheus.register(new PrometheusExporter(registry));
    prometheus.register(new JvmMetrics());
  }

  /** Binds the port and serves; throws if the port is taken. */
  public synchronized void start() {
    if (app != null) {
      throw new IllegalStateException("admin server '" + name + "' already started");
    }
    QueuedThreadPool threads = new QueuedThreadPool(10, 2);
    threads.setName("admin-" + name);
    Javalin created =
        Javalin.create(
            config -> {
              config.showJavalinBanner = false;
              config.startupWatcherEnabled = false;
              config.jetty.threadPool = threads;
              config.router.ignoreTrailingSlashes = true;
              if (tls != null) {
                config.jetty.addConnector(
                    (server, http) -> httpsConnector(server, http, host, requestedPort));
              }
            });
    created.get("/", this::index);
    created.get("/health", this::health);
    created.get("/metrics", this::metrics);
    routes.forEach(route -> created.addHttpHandler(route.method(), route.path(), guarded(route)));
    created.get(
        "/stats.txt",
        ctx -> ctx.contentType(ContentType.TEXT_PLAIN).result(StatsText.render(registry)));
    try {
      created.start(host, requestedPort);
    } catch (RuntimeException e) {
      created.stop();
      throw new IllegalStateException(
          "admin server '"
              + name
              + "' cannot listen on "
              + host
              + ":"
              + requestedPort
              + ": "
              + rootMessage(e),
          e);
    }
    app = created;
  }

  /** The bound port. */
  public synchronized int port() {
    if (app == null) {
      throw new IllegalStateException("admin server '" + name + "' is not started");
    }
    return app.port();
  }

  /** Whether every component reports ready. */
  public boolean isReady() {
    return readiness.get().values().stream().allMatch(Boolean::booleanValue);
  }

  @Override
  public synchronized void close() {
    if (app != null) {
      app.stop();
      app = null;
    }
  }

  /** HTTPS demanding a client certificate of the authority, TLS 1.3/1.2. */
  private ServerConnector httpsConnector(
      Server server, HttpConfiguration http, String bindHost, int bindPort) {
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setSslContext(tls.context());
    ssl.setNeedClientAuth(true);
    ssl.setIncludeProtocols(tls.serverParameters().getProtocols());
    SecureRequestCustomizer secure = new SecureRequestCustomizer();
    secure.setSniHostCheck(false); // clients may dial an address; the certificate check is theirs
    http.addCustomizer(secure);
    ServerConnector connector =
        new ServerConnector(
            server, new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(http));
    connector.setHost(bindHost);
    connector.setPort(bindPort);
    return connector;
  }

  /** With TLS, {@code route} answers only the roles it names (all when it names none). */
  private Handler guarded(AdminRoute route) {
    if (tls == null || route.roles().isEmpty()) {
      return route.handler();
    }
    return ctx -> {
      Role role = callerRole(ctx);
      if (role != null && route.roles().contains(role)) {
        route.handler().handle(ctx);
        return;
      }
      String label = role == null ? "unknown" : role.label();
      registry.counter("admin.refused." + label).inc();
      ctx.status(HttpStatus.FORBIDDEN)
          .result("role " + label + " may not " + route.method() + " " + ctx.path() + "\n");
    };
  }

  /** The role of the client certificate the TLS handshake verified; null if none is known. */
  private static Role callerRole(Context ctx) {
    Object chain = ctx.req().getAttribute("jakarta.servlet.request.X509Certificate");
    if (chain instanceof X509Certificate[] certificates && certificates.length > 0) {
      try {
        return Subject.of(certificates[0]).role();
      } catch (SSLPeerUnverifiedException e) {
        return null;
      }
    }
    return null;
  }

  private void index(Context ctx) {
    ctx.contentType(ContentType.TEXT_PLAIN)
        .result("flipper " + name + " admin: /health /metrics /stats.txt\n");
  }

  private void health(Context ctx) {
    Map<String, Boolean> components = new LinkedHashMap<>(readiness.get());
    boolean ready = components.values().stream().allMatch(Boolean::booleanValue);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("daemon", name);
    body.put("status", ready ? "ready" : "not ready");
    body.put("components", components);
    ctx.status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json(body);
  }

  private void metrics(Context ctx) throws IOException {
    StringWriter text = new StringWriter();
    TextFormat.write004(text, prometheus.metricFamilySamples());
    ctx.contentType(TextFormat.CONTENT_TYPE_004).result(text.toString());
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage();
  }
}
