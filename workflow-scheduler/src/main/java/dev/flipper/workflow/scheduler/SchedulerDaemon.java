package dev.flipper.workflow.scheduler;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.lifecycle.RunState;
import dev.flipper.text.DurationText;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.mail.Mailer;
import dev.flipper.workflow.mail.UiLinks;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workflow scheduler as a daemon: {@code count} {@link SchedulerLoop}s firing due schedules of
 * the master through the engine, with the too-many-instances e-mail. Built without a master, it
 * only reports ready. Thread-safe; {@link #close()} is idempotent.
 */
public final class SchedulerDaemon implements Daemon<Void> {
  private static final Logger log = LoggerFactory.getLogger(SchedulerDaemon.class);

  /**
   * The {@code scheduler.*} settings.
   *
   * @param masterHost host of the token master (its port is {@code master.port}); used by the
   *     launcher
   * @param count scheduler loops in this process, each claiming on its own (1)
   * @param claimLease how long a claimed schedule stays this scheduler's while it fires it (60s)
   * @param batchSize schedules claimed per call (60)
   * @param recheck how soon a waiting slot (DELAY, DELAY_UNTIL_SUCCESS, too many) is looked at
   *     again (30s)
   * @param maxWait the longest one claim waits in the master for a schedule to fall due or be
   *     written (5s)
   */
  public record Config(
      String masterHost,
      int count,
      Duration claimLease,
      int batchSize,
      Duration recheck,
      Duration maxWait) {
    public Config {
      Objects.requireNonNull(masterHost, "masterHost");
      if (count < 1) {
        throw new IllegalArgumentException("scheduler.count is " + count + "; use 1 or more");
      }
      if (claimLease.toMillis() < 1000 || claimLease.toMillis() % 1000 != 0) {
        throw new IllegalArgumentException(
            "scheduler.claimLease is "
                + DurationText.format(claimLease)
                + "; use whole seconds, at least 1s");
      }
    }

    /**
     * The defaults; the {@code scheduler} section of the launcher's config takes its defaults from
     * these.
     */
    public static Config defaults() {
      return new Config(
          "127.0.0.1",
          1,
          Duration.ofSeconds(60),
          60,
          Duration.ofSeconds(30),
          Duration.ofSeconds(5));
    }
  }

  private final RunState state = new RunState("scheduler daemon");
  private final TokenMaster master;
  private final MailSettings mail;
  private final String uiBaseUrl;
  private final Config config;
  private final Clock clock = Clock.systemUTC();
  private final List<ScheduleRunner> runners = new CopyOnWriteArrayList<>();
  private final List<SchedulerLoop> loops = new CopyOnWriteArrayList<>();
  private volatile Mailer mailer;

  /** A scheduler that schedules nothing (no master): it only reports ready. */
  public SchedulerDaemon(MetricRegistry metrics) {
    this(metrics, null, MailSettings.disabled(), "", Config.defaults());
  }

  /**
   * @param master the token master (a client of the master daemon); null: schedule nothing
   * @param uiBaseUrl the UI's address for links in e-mail ({@code ui.baseUrl})
   */
  public SchedulerDaemon(
      MetricRegistry metrics,
      TokenMaster master,
      MailSettings mail,
      String uiBaseUrl,
      Config config) {
    this.master = master;
    this.mail = Objects.requireNonNull(mail, "mail");
    this.uiBaseUrl = uiBaseUrl;
    this.config = Objects.requireNonNull(config, "config");
    metrics.gauge("scheduler.running", () -> () -> state.isRunning() ? 1 : 0);
    metrics.gauge(
        "scheduler.started",
        () -> () -> runners.stream().mapToLong(ScheduleRunner::startedCount).sum());
  }

  @Override
  public void start() {
    state.start();
    if (master == null) {
      log.info("scheduler: no master configured; no schedules are fired");
      return;
    }
    mailer = mail.enabled() ? new Mailer(mail) : null;
    ScheduleNotifier notifier =
        mailer == null
            ? ScheduleNotifier.none()
            : new MailScheduleNotifier(mailer, new UiLinks(uiBaseUrl));
    EngineInstanceStarter starter = EngineInstanceStarter.over(master, clock);
    String owner = owner();
    for (int i = 0; i < config.count(); i++) {
      SchedulerOptions options =
          new SchedulerOptions(
              owner + "-" + i,
              config.claimLease(),
              config.batchSize(),
              config.recheck(),
              config.maxWait());
      ScheduleRunner runner = new ScheduleRunner(master, clock, starter, notifier, options);
      SchedulerLoop loop = new SchedulerLoop(runner, clock, "flipper-scheduler-" + i);
      runners.add(runner);
      loops.add(loop);
      loop.start();
    }
    log.info("scheduler {} started: {}", owner, config);
  }

  @Override
  public Map<String, Boolean> readiness() {
    return Map.of("scheduler", state.isRunning());
  }

  @Override
  public void close() {
    loops.forEach(
        SchedulerLoop::stopSoon); // all at once: each may be in a claim waiting up to maxWait
    loops.forEach(SchedulerLoop::close);
    if (mailer != null) {
      mailer.close();
    }
    state.close();
  }

  /**
   * A unique lease owner: host, process and a random part (two schedulers in one JVM differ too).
   */
  private static String owner() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "unknown-host";
    }
    return "scheduler-"
        + host
        + "-"
        + ProcessHandle.current().pid()
        + "-"
        + UUID.randomUUID().toString().substring(0, 8);
  }
}
