package dev.flipper.workflow.ui;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.lifecycle.NamedThreadFactory;
import dev.flipper.lifecycle.RunState;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.control.WorkflowControl;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.ui.queue.QueueServers;
import dev.flipper.workflow.ui.queue.RateLimits;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The workflow web UI as a daemon: serves the pages and their JSON API (docs/ui.md) on {@code
 * bindAddress:port}, reading the {@link TokenMaster} it is given at each request. The launcher
 * opens that (a Thrift client of the master daemon), as it opens the stores, and closes it after
 * this daemon; this module builds no client. Starts without the master: pages then show "master
 * unreachable" until it answers. Thread-safe; {@link #close()} is idempotent.
 */
public final class UiDaemon implements Daemon<UiDaemon.Config> {
  private static final int READERS = 4;

  /**
   * Settings of the UI (the {@code ui} section of the launcher's config binds into it).
   *
   * @param bindAddress the address the web UI listens on
   * @param port the web UI port; 0 = any free port
   * @param masterHost the host of the token master (its port is {@code master.port})
   */
  public record Config(String bindAddress, int port, String masterHost) {
    /** The web UI's usual port. */
    public static final int DEFAULT_PORT = 8080;

    /**
     * This machine only, port {@value #DEFAULT_PORT}, the master on this machine. The {@code ui}
     * section of the launcher's config takes its defaults from these.
     */
    public static Config defaults() {
      return new Config("127.0.0.1", DEFAULT_PORT, "127.0.0.1");
    }
  }

  private final Config config;
  private final RunState state = new RunState("ui daemon");
  private final UiServer server;
  private final QueueRoutes queueRoutes;

  /** Reads of the master side by side; a few, so one page cannot flood the master. */
  private final ExecutorService readers =
      Executors.newFixedThreadPool(READERS, new NamedThreadFactory("ui-read"));

  private volatile int boundPort;

  /**
   * A UI without sign-in (loopback only) reading {@code master}, in-process or a client the caller
   * made.
   *
   * @param master read at each request; not closed by this daemon. A client should fail fast (the
   *     launcher's makes one connection attempt per call), so that a page answers "master
   *     unreachable" within seconds
   * @param masterAddress where the master is, as the pages show it (e.g. {@code host:port})
   */
  public UiDaemon(Config config, TokenMaster master, String masterAddress, MetricRegistry metrics) {
    this(config, UiAuth.NONE, master, masterAddress, metrics);
  }

  /**
   * A UI with sign-in as {@code auth} says.
   *
   * @throws IllegalStateException if it would serve a non-loopback address to anonymous operators
   *     without {@code auth.allowAnonymous()}
   */
  public UiDaemon(
      Config config,
      UiAuth auth,
      TokenMaster master,
      String masterAddress,
      MetricRegistry metrics) {
    this(config, auth, master, masterAddress, QueueServers.NONE, RateLimits.NONE, metrics);
  }

  /**
   * A UI with sign-in as {@code auth} says and the queue dashboard over {@code queues}, showing the
   * rate limits of {@code rateLimits}.
   *
   * @throws IllegalStateException if it would serve a non-loopback address to anonymous operators
   *     without {@code auth.allowAnonymous()}
   * @throws IllegalArgumentException if a queue server address is not {@code host:port}
   */
  public UiDaemon(
      Config config,
      UiAuth auth,
      TokenMaster master,
      String masterAddress,
      QueueServers queues,
      RateLimits rateLimits,
      MetricRegistry metrics) {
    this(config, auth, master, masterAddress, queues, rateLimits, metrics, null);
  }

  /**
   * As above, the queue dashboard and the log viewer connecting to the queue servers and the
   * workers' log ports with mutual TLS as {@code tls} (the {@code ui} certificate; logs only from
   * servers holding a worker certificate) unless it is null.
   */
  public UiDaemon(
      Config config,
      UiAuth auth,
      TokenMaster master,
      String masterAddress,
      QueueServers queues,
      RateLimits rateLimits,
      MetricRegistry metrics,
      TlsIdentity tls) {
    this.config = Objects.requireNonNull(config, "config");
    auth.checkBind(config.bindAddress());
    WorkflowEngine engine = WorkflowEngine.builder(master).build();
    this.queueRoutes = QueueRoutes.over(queues, rateLimits, readers, Clock.systemUTC(), tls);
    this.server =
        new UiServer(
            new Views(engine, Clock.systemUTC(), readers),
            new Actions(WorkflowControl.builder(engine).build()),
            new Auth(auth, Clock.systemUTC()),
            masterAddress,
            queueRoutes,
            tls);
    metrics.gauge("ui.running", () -> () -> state.isRunning() ? 1 : 0);
  }

  public Config config() {
    return config;
  }

  /** The port the UI listens on (the chosen one when configured as 0); 0 before start. */
  public int port() {
    return boundPort;
  }

  @Override
  public void start() {
    state.start();
    boundPort = server.start(config.bindAddress(), config.port());
  }

  @Override
  public Map<String, Boolean> readiness() {
    return Map.of("ui", state.isRunning());
  }

  @Override
  public List<String> endpoints() {
    String host =
        List.of("0.0.0.0", "::").contains(config.bindAddress())
            ? "127.0.0.1"
            : config.bindAddress();
    return boundPort == 0 ? List.of() : List.of("web UI http://" + host + ":" + boundPort + "/");
  }

  @Override
  public void close() {
    state.close();
    server.close();
    readers.shutdownNow();
    queueRoutes.dashboard().close();
  }
}
