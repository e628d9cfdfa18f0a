package dev.flipper.launcher;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.admin.AdminServer;
import dev.flipper.admin.metrics.BucketedTimers;
import dev.flipper.config.AdminConfig;
import dev.flipper.config.FlipperConfig;
import dev.flipper.launcher.logging.ModeConverter;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.queue.server.QueueDaemon;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.worker.WorkerDaemon;
import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Starts modes one after the other, each with its own metric registry and admin server, prints one
 * ready line per mode, and closes them in reverse order. Used by one thread (the launcher's main
 * thread).
 */
final class ModeRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ModeRunner.class);

  /** A started mode; {@code adminHost} is the address its admin server listens on. */
  record Running(Mode mode, ModeDaemon<?> modeDaemon, AdminServer admin, String adminHost) {
    Daemon<?> daemon() {
      return modeDaemon.daemon();
    }

    String adminUrl() {
      String host = reachableHost(adminHost);
      return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + admin.port();
    }
  }

  private static final List<String> WILDCARDS = List.of("0.0.0.0", "::", "0:0:0:0:0:0:0:0");

  /**
   * The host to print for a server bound to {@code bindAddress}: a wildcard address is reached
   * through loopback.
   */
  static String reachableHost(String bindAddress) {
    return WILDCARDS.contains(bindAddress) ? "127.0.0.1" : bindAddress;
  }

  private final FlipperConfig config;
  private final PrintWriter out;
  private final Deque<Running> running = new ArrayDeque<>();
  private final Consumer<String> requestStop;

  ModeRunner(FlipperConfig config, PrintWriter out) {
    this(config, out, why -> log.info("{}; the other modes of this process keep running", why));
  }

  /**
   * @param requestStop stops the process, given why: how retired workers end it (see {@link
   *     WorkerDaemon#onRetired})
   */
  ModeRunner(FlipperConfig config, PrintWriter out, Consumer<String> requestStop) {
    this.config = config;
    this.out = out;
    this.requestStop = requestStop;
  }

  /**
   * Starts the modes in order. The admin server starts first, so /health answers 503 while the
   * daemon is created (its store or client of the master is opened then) and starts. On failure the
   * modes already started keep running; {@link #close()} stops them.
   */
  void start(List<Mode> modes) throws ModeStartException {
    for (Mode mode : modes) {
      MDC.put(ModeConverter.MDC_KEY, mode.modeName());
      try {
        MetricRegistry metrics =
            new BucketedTimers(); // timers become Prometheus histograms on /metrics
        AtomicReference<Daemon<?>> created = new AtomicReference<>();
        AdminConfig adminConfig = mode.admin(config);
        mode.checkListen(config);
        AdminServer admin =
            new AdminServer(
                mode.modeName(),
                adminConfig.bindAddress(),
                adminConfig.adminPort(),
                metrics,
                () ->
                    created.get() == null
                        ? Map.of(mode.modeName(), false)
                        : created.get().readiness(),
                mode.adminRoutes(config),
                config.security().daemonIdentity(mode.modeName()).orElse(null));
        admin.start();
        ModeDaemon<?> daemon;
        try {
          daemon =
              mode.create(
                  new Mode.Context(
                      config, metrics, admin.port(), localMasterPort(), localQueuePort()));
        } catch (RuntimeException e) {
          admin.close();
          throw e;
        }
        if (daemon.daemon()
            instanceof WorkerDaemon workers) { // an EXIT signal for a newer generation ends them
          workers.onRetired(
              () ->
                  requestStop.accept(
                      "EXIT signal: workers of generation "
                          + workers.config().generation()
                          + " retired"));
        }
        created.set(daemon.daemon());
        Running started = new Running(mode, daemon, admin, adminConfig.bindAddress());
        running.push(started);
        daemon.daemon().start();
        String state = admin.isReady() ? "ready" : "started, not ready yet";
        StringBuilder line =
            new StringBuilder(
                "flipper: "
                    + mode.modeName()
                    + " "
                    + state
                    + ", admin "
                    + started.adminUrl()
                    + "/health");
        daemon.daemon().endpoints().forEach(endpoint -> line.append(", ").append(endpoint));
        out.println(line);
        out.flush();
        log.info(
            "{} {}; admin on {}:{}",
            mode.modeName(),
            state,
            adminConfig.bindAddress(),
            admin.port());
      } catch (Exception e) {
        throw new ModeStartException(mode, e);
      } finally {
        MDC.remove(ModeConverter.MDC_KEY);
      }
    }
  }

  /** The Thrift port of the master started in this JVM, 0 if none runs here. */
  private int localMasterPort() {
    return running.stream()
        .filter(
            r ->
                r.mode() == Mode.MASTER
                    && r.daemon() instanceof MasterDaemon
                    && r.daemon().isReady())
        .mapToInt(r -> ((MasterDaemon) r.daemon()).port())
        .findFirst()
        .orElse(0);
  }

  /** The Thrift port of the queue server started in this JVM, 0 if none runs here. */
  private int localQueuePort() {
    return running.stream()
        .filter(r -> r.mode() == Mode.QUEUE && r.daemon() instanceof QueueDaemon<?>)
        .mapToInt(r -> ((QueueDaemon<?>) r.daemon()).port())
        .findFirst()
        .orElse(0);
  }

  List<Running> running() {
    List<Running> inStartOrder = new ArrayList<>(running);
    java.util.Collections.reverse(inStartOrder);
    return inStartOrder;
  }

  /** Hands a changed config to every running daemon (each applies what it can change live). */
  void reconfigure(FlipperConfig newConfig) {
    for (Running r : running) {
      MDC.put(ModeConverter.MDC_KEY, r.mode().modeName());
      try {
        r.modeDaemon().reconfigure(newConfig);
      } finally {
        MDC.remove(ModeConverter.MDC_KEY);
      }
    }
  }

  /**
   * Closes every started mode, the last started first: daemon, then its admin server (so /health
   * reports the stop). Returns false if any close failed; the others are still closed.
   */
  boolean closeAll() {
    boolean clean = true;
    while (!running.isEmpty()) {
      Running r = running.pop();
      MDC.put(ModeConverter.MDC_KEY, r.mode().modeName());
      try {
        r.modeDaemon().close(); // the daemon, then the client of the master opened for it
        log.info("{} stopped", r.mode().modeName());
      } catch (RuntimeException e) {
        clean = false;
        log.error("{} did not stop cleanly: {}", r.mode().modeName(), e.toString(), e);
      } finally {
        r.admin().close();
        MDC.remove(ModeConverter.MDC_KEY);
      }
    }
    return clean;
  }

  @Override
  public void close() {
    closeAll();
  }

  /** A mode could not start; the message names the mode and the cause. */
  static final class ModeStartException extends Exception {
    ModeStartException(Mode mode, Exception cause) {
      super(mode.modeName() + " failed to start: " + describe(cause), cause);
    }

    private static String describe(Throwable e) {
      String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
      Throwable cause = e.getCause();
      if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
        message += " (" + cause.getMessage() + ")";
      }
      return message;
    }
  }
}
