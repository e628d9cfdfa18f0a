package dev.flipper.workflow.scheduler;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.lifecycle.RunState;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.mail.Mailer;
import dev.flipper.workflow.mail.UiLinks;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workflow scheduler as a daemon: a {@link SchedulerLoop} firing due schedules of the master through the
 * engine, with the too-many-instances e-mail. Built without a master (the launcher does not connect daemons to
 * the master yet), it only reports ready. Thread-safe; {@link #close()} is idempotent.
 */
public final class SchedulerDaemon implements Daemon<Void> {
  private static final Logger log = LoggerFactory.getLogger(SchedulerDaemon.class);

  /**
   * The {@code scheduler.*} settings.
   *
   * @param claimLease how long a claimed schedule stays this scheduler's while it fires it (60s)
   * @param batchSize schedules claimed per call (60)
   * @param recheck how soon a waiting slot (DELAY, DELAY_UNTIL_SUCCESS, too many) is looked at again (30s)
   * @param maxSleep the longest sleep between passes; a schedule applied elsewhere is seen within it (1s)
   */
  public record Config(Duration claimLease, int batchSize, Duration recheck, Duration maxSleep) {
    public static Config defaults() {
      return new Config(Duration.ofSeconds(60), 60, Duration.ofSeconds(30), Duration.ofSeconds(1));
    }
  }

  private final RunState state = new RunState("scheduler daemon");
  private final TokenMaster master;
  private final MailSettings mail;
  private final String uiBaseUrl;
  private final Config config;
  private final Clock clock = Clock.systemUTC();
  private volatile ScheduleRunner runner;
  private volatile SchedulerLoop loop;
  private volatile Mailer mailer;

  /** A scheduler that schedules nothing (no master): it only reports ready. */
  public SchedulerDaemon(MetricRegistry metrics) {
    this(metrics, null, MailSettings.disabled(), "", Config.defaults());
  }

  /**
   * @param master the token master (a client of the master daemon); null: schedule nothing
   * @param uiBaseUrl the UI's address for links in e-mail ({@code ui.baseUrl})
   */
  public SchedulerDaemon(MetricRegistry metrics, TokenMaster master, MailSettings mail, String uiBaseUrl,
      Config config) {
    this.master = master;
    this.mail = Objects.requireNonNull(mail, "mail");
    this.uiBaseUrl = uiBaseUrl;
    this.config = Objects.requireNonNull(config, "config");
    metrics.gauge("scheduler.running", () -> () -> state.isRunning() ? 1 : 0);
    metrics.gauge("scheduler.started", () -> () -> runner == null ? 0 : runner.startedCount());
  }

  @Override
  public void start() {
    state.start();
    if (master == null) {
      log.info("scheduler: no master configured; no schedules are fired");
      return;
    }
    mailer = mail.enabled() ? new Mailer(mail) : null;
    ScheduleNotifier notifier = mailer == null ? ScheduleNotifier.none()
        : new MailScheduleNotifier(mailer, new UiLinks(uiBaseUrl));
    SchedulerOptions options = new SchedulerOptions(owner(), config.claimLease(), config.batchSize(),
        config.recheck(), config.maxSleep());
    runner = new ScheduleRunner(master, clock, EngineInstanceStarter.over(master, clock), notifier, options);
    loop = new SchedulerLoop(runner, clock, "flipper-scheduler");
    loop.start();
    log.info("scheduler {} started: {}", options.owner(), config);
  }

  @Override
  public Map<String, Boolean> readiness() {
    return Map.of("scheduler", state.isRunning());
  }

  @Override
  public void close() {
    if (loop != null) {
      loop.close();
    }
    if (mailer != null) {
      mailer.close();
    }
    state.close();
  }

  /** A unique lease owner: host, process and a random part (two schedulers in one JVM differ too). */
  private static String owner() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "unknown-host";
    }
    return "scheduler-" + host + "-" + ProcessHandle.current().pid() + "-"
        + UUID.randomUUID().toString().substring(0, 8);
  }
}
