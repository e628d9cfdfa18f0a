package dev.flipper.launcher.modes;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.config.FlipperConfig;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.scheduler.SchedulerDaemon;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler mode: a {@link SchedulerDaemon} with a Thrift client of the master ({@code scheduler.masterHost},
 * {@code master.port}) that reconnects by itself. With {@code master.port} 0 and no master in this JVM there is
 * nothing to connect to, and the scheduler only reports ready (saying so in its log). With {@code email.enabled} it
 * mails the too-many-instances notice, linking to {@code ui.baseUrl}. Closes the client after the daemon. Thread-safe like the daemon.
 */
public final class SchedulerModeDaemon implements Daemon<SchedulerDaemon.Config> {
  private static final Logger log = LoggerFactory.getLogger(SchedulerModeDaemon.class);

  private final SchedulerDaemon daemon;
  private final TokenMasterClient client;
  private final String masterAddress;

  /**
   * @param localMasterPort the port of a master started in this JVM, 0 = none: with {@code master.port} 0 (a
   *     demo beside another one) the scheduler connects to the port the system chose
   */
  public SchedulerModeDaemon(FlipperConfig config, MetricRegistry metrics, int localMasterPort) {
    SchedulerDaemon.Config settings = config.scheduler();
    int masterPort = config.master().port() != 0 ? config.master().port() : localMasterPort;
    // Fail a call within seconds when the master is away: the loop tries again after a second, and a claimed
    // schedule is safe behind its lease.
    masterAddress = settings.masterHost() + ":" + masterPort;
    client = masterPort == 0 ? null
        : TokenMasterClient.builder(settings.masterHost(), masterPort).connectAttempts(3)
            .maxBackoff(Duration.ofSeconds(1)).build();
    daemon = new SchedulerDaemon(metrics, client, config.email(), config.uiLinks().baseUrl(), settings);
  }

  @Override
  public void start() {
    if (client != null) {
      log.info("scheduler: master at {}", masterAddress); // endpoints() are where a daemon serves; this it calls
    }
    daemon.start();
  }

  @Override
  public Map<String, Boolean> readiness() {
    return daemon.readiness();
  }

  /** Cuts a claim waiting in the master short first, so the loops stop at once rather than after scheduler.maxWait. */
  @Override
  public void close() {
    if (client != null) {
      client.stopWaiting();
    }
    daemon.close();
    if (client != null) {
      client.close();
    }
  }
}
