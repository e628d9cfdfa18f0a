package dev.flipper.launcher.modes;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.admin.AdminRoute;
import dev.flipper.admin.LogCleanupEndpoint;
import dev.flipper.admin.LogEndpoint;
import dev.flipper.config.FlipperConfig;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.mail.Mailer;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.worker.MailNotifier;
import dev.flipper.workflow.worker.WorkerDaemon;
import dev.flipper.workflow.worker.exec.LogCleaner;
import dev.flipper.workflow.worker.exec.LogFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The workers mode: a {@link WorkerDaemon} with a Thrift client of the master ({@code workers.masterHost},
 * {@code master.port}) that reconnects by itself, and log URLs naming the admin port, where
 * {@link #adminRoutes} serves the job logs under {@code /logs/}; with {@code email.enabled}, e-mail about job
 * failures, warn time-outs and instance ends ({@link MailNotifier}). Closes the mailer and the client after the
 * daemon.
 * Thread-safe like the daemon.
 */
public final class WorkersModeDaemon implements Daemon<WorkerDaemon.Config> {
  private final WorkerDaemon daemon;
  private final TokenMasterClient client;
  private final Mailer mailer;

  /**
   * @param adminPort the bound admin port, for the log URLs
   * @param localMasterPort the port of a master started in this JVM, 0 = none: with {@code master.port} 0
   *     (a demo beside another one) the workers connect to the port the system chose
   */
  public WorkersModeDaemon(FlipperConfig config, MetricRegistry metrics, int adminPort, int localMasterPort) {
    WorkerDaemon.Config settings = config.workers();
    int masterPort = config.master().port() != 0 ? config.master().port() : localMasterPort;
    // Fail a call within seconds when the master is away: the slots and lease keepers retry on their own,
    // bounded by the lease, and must not sit in a long reconnect backoff meanwhile.
    client = masterPort == 0 ? null
        : TokenMasterClient.builder(settings.masterHost(), masterPort).connectAttempts(3)
            .maxBackoff(Duration.ofSeconds(1)).build();
    TokenMaster master = client != null ? client : noMaster();
    daemon = new WorkerDaemon(settings, master, metrics);
    String logBase = "http://" + urlHost(advertisedHost(settings.advertisedHost(),
        config.admin("workers").bindAddress())) + ":" + adminPort;
    daemon.serveLogsAt(() -> logBase);
    mailer = config.email().enabled() ? new Mailer(config.email()) : null;
    if (mailer != null) {
      MailNotifier notifier =
          new MailNotifier(mailer, config.uiLinks(), WorkflowEngine.builder(master).build().status());
      daemon.warnTimeoutAlert(notifier).engineListener(notifier);
    }
  }

  /**
   * The admin routes of the workers: their job logs under {@code workers.logDir}, read by {@link LogEndpoint}
   * and deleted by {@link LogCleanupEndpoint}.
   */
  public static List<AdminRoute> adminRoutes(FlipperConfig config) {
    try {
      LogFiles logs = new LogFiles(Path.of(config.workers().logDir()));
      return List.of(new LogEndpoint(logs).route(), new LogCleanupEndpoint(new LogCleaner(logs)).route());
    } catch (IOException e) {
      throw new UncheckedIOException("workers.logDir " + config.workers().logDir() + " cannot be created: " + e, e);
    }
  }

  /** workers.advertisedHost; else workers.bindAddress unless it is a wildcard; else this machine's host name. */
  static String advertisedHost(String configured, String bindAddress) {
    if (!configured.isEmpty()) {
      return configured;
    }
    if (!List.of("0.0.0.0", "::", "0:0:0:0:0:0:0:0").contains(bindAddress)) {
      return bindAddress;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  private static String urlHost(String host) {
    return host.contains(":") ? "[" + host + "]" : host;
  }

  /**
   * master.port 0 with no master in this JVM (a test starting each mode alone): the workers start, and each
   * claim fails with this message, logged once per slot.
   */
  private static TokenMaster noMaster() {
    return (TokenMaster) Proxy.newProxyInstance(
        TokenMaster.class.getClassLoader(), new Class<?>[] {TokenMaster.class}, (proxy, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return method.getName().equals("toString") ? "no master" : method.getName().equals("equals")
                ? proxy == args[0] : System.identityHashCode(proxy);
          }
          throw new IllegalStateException("master.port is 0 and no master runs in this process: set master.port "
              + "to the port of the master the workers should use");
        });
  }

  /**
   * What to do once the workers have retired (an EXIT signal for a newer generation, their jobs ended): the
   * launcher's stop, given why.
   */
  public WorkersModeDaemon onRetired(Consumer<String> requestStop) {
    daemon.onRetired(() -> requestStop.accept("EXIT signal: workers of generation "
        + daemon.config().generation() + " retired"));
    return this;
  }

  @Override
  public void start() {
    daemon.start();
  }

  @Override
  public Map<String, Boolean> readiness() {
    return daemon.readiness();
  }

  @Override
  public List<String> endpoints() {
    return daemon.endpoints();
  }

  /**
   * Cuts the slots' claims waiting in the master short first (the slots stop at once rather than after their
   * claim wait); the client still serves the hand-backs of running jobs.
   */
  @Override
  public void close() {
    if (client != null) {
      client.stopWaiting();
    }
    daemon.close();
    if (mailer != null) {
      mailer.close(); // after the slots: their last messages still go out (5s at most)
    }
    if (client != null) {
      client.close();
    }
  }
}
