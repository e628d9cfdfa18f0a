package dev.flipper.workflow.ui;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.lifecycle.NamedThreadFactory;
import dev.flipper.lifecycle.RunState;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.control.WorkflowControl;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.ui.queue.QueueServers;
import dev.flipper.workflow.ui.queue.RateLimits;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The workflow web UI as a daemon: serves the pages and their JSON API (docs/ui.md) on
 * {@code bindAddress:port}, reading the master over Thrift at each request. Starts without the master: pages then
 * show "master unreachable" until it answers. Thread-safe; {@link #close()} is idempotent.
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
  public record Config(String bindAddress, int port, String masterHost) {}

  private final Config config;
  private final RunState state = new RunState("ui daemon");
  private final TokenMasterClient client;
  private final UiServer server;
  private final QueueRoutes queueRoutes;
  /** Reads of the master side by side; a few, so one page cannot flood the master. */
  private final ExecutorService readers = Executors.newFixedThreadPool(READERS, new NamedThreadFactory("ui-read"));
  private volatile int boundPort;

  /**
   * A UI reading the master at {@code masterHost:masterPort}. Port 0 (master.port 0 with no master in this
   * process) starts the UI anyway; its pages then say what to configure.
   */
  public UiDaemon(Config config, UiAuth auth, int masterPort, MetricRegistry metrics) {
    this(config, auth, masterPort, QueueServers.NONE, RateLimits.NONE, metrics);
  }

  /**
   * As above, with the queue dashboard over {@code queues} ({@code ui.queueServers} or its server-set file),
   * showing the rate limits of {@code rateLimits}.
   */
  public UiDaemon(Config config, UiAuth auth, int masterPort, QueueServers queues, RateLimits rateLimits,
      MetricRegistry metrics) {
    this(config, auth, masterPort == 0 ? new NoMaster() : masterClient(config.masterHost(), masterPort),
        config.masterHost() + ":" + masterPort, queues, rateLimits, metrics);
  }

  /**
   * A client of the master as the UI needs it: one quick connection attempt per call, so a page answers "master
   * unreachable" within seconds instead of waiting out a reconnect backoff.
   */
  public static TokenMasterClient masterClient(String host, int port) {
    return TokenMasterClient.builder(host, port).connectAttempts(1).connectTimeout(Duration.ofSeconds(2))
        .maxBackoff(Duration.ofSeconds(1)).build();
  }

  /** A UI without sign-in (loopback only) reading {@code master}, in-process or a client the caller made. */
  public UiDaemon(Config config, TokenMaster master, String masterAddress, MetricRegistry metrics) {
    this(config, UiAuth.NONE, master, masterAddress, metrics);
  }

  /**
   * A UI with sign-in as {@code auth} says.
   *
   * @throws IllegalStateException if it would serve a non-loopback address to anonymous operators without
   *     {@code auth.allowAnonymous()}
   */
  public UiDaemon(Config config, UiAuth auth, TokenMaster master, String masterAddress, MetricRegistry metrics) {
    this(config, auth, master, masterAddress, QueueServers.NONE, RateLimits.NONE, metrics);
  }

  /**
   * A UI with sign-in as {@code auth} says and the queue dashboard over {@code queues}, showing the rate limits
   * of {@code rateLimits}.
   *
   * @throws IllegalStateException if it would serve a non-loopback address to anonymous operators without
   *     {@code auth.allowAnonymous()}
   * @throws IllegalArgumentException if a queue server address is not {@code host:port}
   */
  public UiDaemon(Config config, UiAuth auth, TokenMaster master, String masterAddress, QueueServers queues,
      RateLimits rateLimits, MetricRegistry metrics) {
    this.config = Objects.requireNonNull(config, "config");
    auth.checkBind(config.bindAddress());
    this.client = master instanceof TokenMasterClient c ? c : null;
    WorkflowEngine engine = WorkflowEngine.builder(master).build();
    this.queueRoutes = QueueRoutes.over(queues, rateLimits, readers, Clock.systemUTC());
    this.server = new UiServer(new Views(engine, Clock.systemUTC(), readers),
        new Actions(WorkflowControl.builder(engine).build()), new Auth(auth, Clock.systemUTC()), masterAddress,
        queueRoutes);
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
    String host = List.of("0.0.0.0", "::").contains(config.bindAddress()) ? "127.0.0.1" : config.bindAddress();
    return boundPort == 0 ? List.of() : List.of("web UI http://" + host + ":" + boundPort + "/");
  }

  @Override
  public void close() {
    state.close();
    server.close();
    readers.shutdownNow();
    queueRoutes.dashboard().close();
    if (client != null) {
      client.close();
    }
  }
}
