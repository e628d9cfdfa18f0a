package dev.flipper.workflow.worker;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.lifecycle.NamedThreadFactory;
import dev.flipper.lifecycle.RunState;
import dev.flipper.text.DurationText;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.EngineListener;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.mail.Mailer;
import dev.flipper.workflow.mail.UiLinks;
import dev.flipper.workflow.worker.exec.LogFiles;
import dev.flipper.workflow.worker.exec.ShellExecutor;
import dev.flipper.workflow.worker.internal.HeartbeatLoop;
import dev.flipper.workflow.worker.internal.IdleWait;
import dev.flipper.workflow.worker.internal.JobRun;
import dev.flipper.workflow.worker.internal.LogSpace;
import dev.flipper.workflow.worker.internal.LogUrls;
import dev.flipper.workflow.worker.internal.Slot;
import dev.flipper.workflow.worker.internal.WorkerIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workflow workers of one process (mode {@code workers}): {@code count} slots, each a thread
 * that claims the best runnable job of all workflows from the master with a lease, runs it as a
 * shell command, keeps the lease, and records the result (see {@link Slot} and {@link JobRun}). Now
 * and then it archives finished instances whose archive delay has passed.
 *
 * <p><b>Stopping</b> ({@link #close()}, the launcher's SIGTERM): no slot claims again; running jobs
 * get {@code shutdownGrace} to end on their own and are recorded as usual; jobs still running then
 * are killed (process group, SIGTERM then SIGKILL) and handed back: the execution is closed as
 * "handed back", does not count as an attempt, and the job is runnable again at once for another
 * worker. A job is never left owned by a stopped worker unless the master is unreachable (then its
 * lease ends and the next claimer closes the attempt as "lease lost").
 *
 * <p><b>Heartbeat and upgrades</b>: every {@code heartbeatInterval} the process publishes its
 * heartbeat (its generation, slots and running jobs; {@code flipper workflow workers}) and reads
 * the EXIT signal. An EXIT for a newer generation than {@code generation} retires it: no slot
 * claims again, running jobs end and are recorded as usual (nothing is killed), then {@link
 * #onRetired} runs. {@link #close()} deletes the heartbeat.
 *
 * <p>Thread-safe; {@link #close()} is idempotent.
 */
public final class WorkerDaemon implements Daemon<WorkerDaemon.Config> {
  /**
   * Settings of the workers: the {@code workers} section of the config (docs/configuration.md),
   * bound by component name ({@code workers.lease} into {@code lease}).
   *
   * @param count how many jobs run at the same time in this process
   * @param lease how long a claim holds a job without renewal; renewed every lease/3. A worker that
   *     cannot renew it (the master refused, or did not answer before it ended) kills the job's
   *     process
   * @param archiveDelay how long a finished instance stays visible before it is archived
   * @param shutdownGrace on stop, how long running jobs may still take before they are killed and
   *     handed back
   * @param logDir where the job logs are written and served from
   * @param workDir the working directory of every job; "" = a directory per instance under {@code
   *     <logDir>/../work/<workflow>/<instance>}
   * @param advertisedHost the host in the log URLs (used by whoever serves the logs, see {@link
   *     #serveLogsAt}); "" = the admin bind address unless it is a wildcard, else this machine's
   *     host name
   * @param masterHost the host of the token master (its port is {@code master.port})
   * @param generation this worker's generation (upgrades): an EXIT signal for a higher one makes it
   *     finish its jobs and exit
   * @param heartbeatInterval how often the worker publishes its heartbeat; it counts as dead after
   *     {@value HeartbeatLoop#MISSED_BEATS_TO_DEAD} intervals without one
   * @param maxLogBytes the most bytes kept of each log (stdout, stderr) of one execution: beyond it
   *     the first and last halves are kept with a marker line between them; 0 = no cap
   * @param maxLogFolderBytes no job starts while the log folder holds this much or more (summed at
   *     most once a minute); 0 = no cap
   * @param minFreeDiskBytes no job starts while the log folder's file system has less free; 0 = no
   *     check
   */
  public record Config(
      int count,
      Duration lease,
      Duration archiveDelay,
      Duration shutdownGrace,
      String logDir,
      String workDir,
      String advertisedHost,
      String masterHost,
      int generation,
      Duration heartbeatInterval,
      long maxLogBytes,
      long maxLogFolderBytes,
      long minFreeDiskBytes) {
    /**
     * The log limits of {@link #DEFAULT_MAX_LOG_BYTES} and {@link #DEFAULT_MIN_FREE_DISK_BYTES}.
     */
    public Config(
        int count,
        Duration lease,
        Duration archiveDelay,
        Duration shutdownGrace,
        String logDir,
        String workDir,
        String advertisedHost,
        String masterHost,
        int generation,
        Duration heartbeatInterval) {
      this(
          count,
          lease,
          archiveDelay,
          shutdownGrace,
          logDir,
          workDir,
          advertisedHost,
          masterHost,
          generation,
          heartbeatInterval,
          DEFAULT_MAX_LOG_BYTES,
          DEFAULT_MAX_LOG_FOLDER_BYTES,
          DEFAULT_MIN_FREE_DISK_BYTES);
    }

    /** Generation 1, a heartbeat every {@link #DEFAULT_HEARTBEAT_INTERVAL}. */
    public Config(
        int count,
        Duration lease,
        Duration archiveDelay,
        Duration shutdownGrace,
        String logDir,
        String workDir,
        String advertisedHost,
        String masterHost) {
      this(
          count,
          lease,
          archiveDelay,
          shutdownGrace,
          logDir,
          workDir,
          advertisedHost,
          masterHost,
          1,
          DEFAULT_HEARTBEAT_INTERVAL);
    }

    public Config {
      if (generation < 1) {
        throw new IllegalArgumentException(
            "workers.generation is " + generation + "; use 1 or more");
      }
      if (heartbeatInterval.toMillis() < 100) {
        throw new IllegalArgumentException(
            "workers.heartbeatInterval is "
                + DurationText.format(heartbeatInterval)
                + "; use 100ms or more");
      }
      if (count < 1) {
        throw new IllegalArgumentException("workers.count is " + count + "; use 1 or more");
      }
      if (lease.toMillis() < 1000 || lease.toMillis() % 1000 != 0) {
        throw new IllegalArgumentException(
            "workers.lease is " + DurationText.format(lease) + "; use whole seconds, at least 1s");
      }
      if (maxLogBytes != 0 && maxLogBytes < MIN_MAX_LOG_BYTES) {
        throw new IllegalArgumentException(
            "workers.maxLogBytes is "
                + maxLogBytes
                + "; use 0 (no cap) or at least "
                + MIN_MAX_LOG_BYTES);
      }
      if (maxLogFolderBytes < 0 || minFreeDiskBytes < 0) {
        throw new IllegalArgumentException(
            "workers.maxLogFolderBytes ("
                + maxLogFolderBytes
                + ") and workers.minFreeDiskBytes ("
                + minFreeDiskBytes
                + ") must be 0 (off) or positive");
      }
    }

    /** These settings with other log limits (see the record's parameters). */
    public Config withLogLimits(long maxLogBytes, long maxLogFolderBytes, long minFreeDiskBytes) {
      return new Config(
          count,
          lease,
          archiveDelay,
          shutdownGrace,
          logDir,
          workDir,
          advertisedHost,
          masterHost,
          generation,
          heartbeatInterval,
          maxLogBytes,
          maxLogFolderBytes,
          minFreeDiskBytes);
    }

    /**
     * The defaults: 2 slots and those of {@link #of}. The {@code workers} section of the launcher's
     * config takes its defaults from these.
     */
    public static Config defaults() {
      return of(2);
    }

    /**
     * Defaults for embedding and tests: leases of 60s, archive after 12h, 20s grace, logs under
     * ./data/logs.
     */
    public static Config of(int count) {
      return new Config(
          count,
          Duration.ofSeconds(60),
          WorkflowEngine.DEFAULT_ARCHIVE_DELAY,
          Duration.ofSeconds(20),
          "./data/logs",
          "",
          "",
          "127.0.0.1");
    }
  }

  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(5);

  /** Each log of an execution keeps at most 64 MiB: its first and last 32 MiB. */
  public static final long DEFAULT_MAX_LOG_BYTES = 64L << 20;

  /** The smallest cap of a log other than 0 (none): room for a head, a marker line and a tail. */
  public static final long MIN_MAX_LOG_BYTES = 1L << 10;

  /** No cap on the log folder's total size: its cleanup is the archive's (LogCleaner). */
  public static final long DEFAULT_MAX_LOG_FOLDER_BYTES = 0;

  /** No job starts while the log folder's disk has less than 256 MiB free. */
  public static final long DEFAULT_MIN_FREE_DISK_BYTES = 256L << 20;

  /**
   * How often finished instances are looked at for archiving (each call archives those that are
   * due).
   */
  static final Duration ARCHIVE_INTERVAL = Duration.ofMinutes(1);

  private static final Logger LOG = LoggerFactory.getLogger(WorkerDaemon.class);

  private final Config config;
  private final TokenMaster master;
  private final Clock clock;
  private final RunState state = new RunState("workers daemon");
  private final IdleWait idle = new IdleWait();
  private final Set<JobRun> running = ConcurrentHashMap.newKeySet();
  private final List<Thread> threads = new ArrayList<>();
  private final Counter succeeded;
  private final Counter failed;
  private final Counter lost;
  private final Counter handedBack;
  private final LogFiles logFiles;
  private volatile boolean stopping;

  /**
   * An EXIT signal for a newer generation was seen: claim nothing more, exit after the running
   * jobs.
   */
  private volatile boolean retiring;

  private Runnable onRetired = () -> {};
  private FreeSpace freeSpace = FreeSpace.FILE_STORE;
  private HeartbeatLoop heartbeat;
  private Supplier<String> logBaseUrl = () -> null;
  private WarnTimeoutAlert alert = WarnTimeoutAlert.LOG_ONLY;
  private EngineListener engineListener = EngineListener.NONE;

  /** The mailer of {@link #mailWith}, closed after the slots; null without e-mail. */
  private volatile Mailer mailer;

  private ShellExecutor executor;
  private ScheduledThreadPoolExecutor timer;

  /**
   * @param master the token master (in-process, or a client that reconnects); not closed by this
   *     daemon
   * @throws UncheckedIOException if the log directory cannot be created
   */
  public WorkerDaemon(Config config, TokenMaster master, MetricRegistry metrics) {
    this(config, master, metrics, Clock.systemUTC());
  }

  WorkerDaemon(Config config, TokenMaster master, MetricRegistry metrics, Clock clock) {
    this.config = Objects.requireNonNull(config, "config");
    this.master = Objects.requireNonNull(master, "master");
    this.clock = clock;
    try {
      this.logFiles = new LogFiles(Path.of(config.logDir()));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "workers.logDir " + config.logDir() + " cannot be created: " + e, e);
    }
    metrics.gauge("workers.running", () -> () -> state.isRunning() ? 1 : 0);
    metrics.gauge("workers.busy", () -> running::size);
    succeeded = metrics.counter("workers.jobs.succeeded");
    failed = metrics.counter("workers.jobs.failed");
    lost = metrics.counter("workers.jobs.lost");
    handedBack = metrics.counter("workers.jobs.handedBack");
  }

  public Config config() {
    return config;
  }

  /** The logs this worker writes, for its log endpoint. */
  public LogFiles logFiles() {
    return logFiles;
  }

  /**
   * Where this worker's logs are served, e.g. {@code http://host7:9093} (asked at each job start,
   * since the admin port may be chosen at bind time). Default: none, and execution records carry no
   * log URL. Call before {@link #start()}.
   */
  public WorkerDaemon serveLogsAt(Supplier<String> baseUrl) {
    this.logBaseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
    return this;
  }

  /**
   * The logs are served by an HTTP server listening on {@code bindAddress:port} (the launcher's
   * admin server of the workers, under {@code /logs/}): their URLs name {@link
   * Config#advertisedHost()}; when that is "", the {@code bindAddress} unless it is a wildcard,
   * else this machine's host name. Call before {@link #start()}.
   */
  public WorkerDaemon serveLogsAt(String bindAddress, int port) {
    String logBase =
        "http://" + urlHost(advertisedHost(config.advertisedHost(), bindAddress)) + ":" + port;
    return serveLogsAt(() -> logBase);
  }

  /**
   * workers.advertisedHost; else the bind address unless it is a wildcard; else this machine's host
   * name.
   */
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
   * With {@code mail.enabled()}, e-mail about job failures, warn time-outs and instance ends
   * ({@link MailNotifier}, linking to the UI at {@code links}) through a {@link Mailer} of this
   * daemon's, closed after the slots so that their last messages still go out (5 s at most).
   * Replaces {@link #warnTimeoutAlert} and {@link #engineListener}. Disabled: nothing changes. Call
   * before {@link #start()}.
   */
  public WorkerDaemon mailWith(MailSettings mail, UiLinks links) {
    if (!mail.enabled()) {
      return this;
    }
    if (mailer != null) {
      throw new IllegalStateException("the workers' mail is already set up");
    }
    mailer = new Mailer(mail);
    MailNotifier notifier =
        new MailNotifier(mailer, links, WorkflowEngine.builder(master).build().status());
    return warnTimeoutAlert(notifier).engineListener(notifier);
  }

  /**
   * What to do beyond a log line when a job passes its warn time-out. Call before {@link #start()}.
   */
  public WorkerDaemon warnTimeoutAlert(WarnTimeoutAlert alert) {
    this.alert = Objects.requireNonNull(alert, "alert");
    return this;
  }

  /**
   * Told of jobs that fail for good and instance ends caused by this worker's calls (e-mail: {@link
   * MailNotifier}). Call before {@link #start()}.
   */
  public WorkerDaemon engineListener(EngineListener listener) {
    this.engineListener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * What to do once this worker has retired (an EXIT signal for a newer generation: no more claims,
   * every running job ended and recorded): the launcher stops the process. Called on a thread of
   * its own. Default: nothing, the daemon stays up without slots. Call before {@link #start()}.
   */
  public WorkerDaemon onRetired(Runnable action) {
    this.onRetired = Objects.requireNonNull(action, "action");
    return this;
  }

  /** How the free space of the log folder is read (tests fake a full disk). Call before start. */
  WorkerDaemon freeSpace(FreeSpace probe) {
    this.freeSpace = Objects.requireNonNull(probe, "probe");
    return this;
  }

  /** Starts the slots; may be called once. */
  @Override
  public void start() {
    state.start();
    WorkflowEngine engine =
        WorkflowEngine.builder(master)
            .clock(clock)
            .archiveDelay(config.archiveDelay())
            .listener(engineListener)
            .build();
    executor =
        ShellExecutor.builder(logFiles).clock(clock).maxLogBytes(config.maxLogBytes()).build();
    // A few threads: a renewal that waits on an unreachable master must not hold up the others'
    // renewals.
    timer =
        new ScheduledThreadPoolExecutor(
            Math.min(config.count(), 4), new NamedThreadFactory("flipper-workers-leases"));
    timer.setRemoveOnCancelPolicy(true);
    Path workDir = config.workDir().isEmpty() ? null : Path.of(config.workDir()).toAbsolutePath();
    Path defaultWorkRoot = logFiles.root().resolveSibling("work");
    // The real host name in names and records; the advertised host is only for the log URLs
    // (serveLogsAt).
    WorkerIdentity identity = WorkerIdentity.ofThisHost();
    JobRun.Context ctx =
        new JobRun.Context(
            engine,
            executor,
            timer,
            clock,
            identity.host(),
            workDir,
            defaultWorkRoot,
            new LogUrls(logBaseUrl),
            alert,
            new LogSpace(
                logFiles.root(),
                config.minFreeDiskBytes(),
                config.maxLogFolderBytes(),
                freeSpace,
                clock));
    Slot.Listener listener =
        new Slot.Listener() {
          @Override
          public void started(JobRun run) {
            running.add(run);
          }

          @Override
          public void ended(JobRun run, JobRun.Outcome outcome) {
            running.remove(run);
            switch (outcome) {
              case SUCCEEDED -> succeeded.inc();
              case FAILED -> failed.inc();
              case LOST -> lost.inc();
              case HANDED_BACK, NO_ROOM -> handedBack.inc();
            }
          }
        };
    NamedThreadFactory slotThreads = new NamedThreadFactory("flipper-worker");
    for (int i = 1; i <= config.count(); i++) {
      Slot slot =
          new Slot(
              identity.slotName(i),
              ctx,
              config.lease(),
              idle,
              () -> stopping || retiring,
              listener);
      Thread thread = slotThreads.newThread(slot);
      threads.add(thread);
      thread.start();
    }
    heartbeat =
        new HeartbeatLoop(
            new Heartbeats(master),
            clock,
            identity.processName(),
            identity.host(),
            logBaseUrl,
            config.generation(),
            config.count(),
            config.heartbeatInterval(),
            () ->
                new HeartbeatLoop.State(
                    running.stream().map(JobRun::key).sorted().toList(), retiring),
            this::retire);
    heartbeat.beat();
    timer.scheduleWithFixedDelay(
        heartbeat::beat,
        config.heartbeatInterval().toMillis(),
        config.heartbeatInterval().toMillis(),
        TimeUnit.MILLISECONDS);
    // A random first delay, so that the workers of a fleet started together do not archive in step.
    long first = ThreadLocalRandom.current().nextLong(ARCHIVE_INTERVAL.toMillis());
    timer.scheduleWithFixedDelay(
        () -> archive(engine), first, ARCHIVE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    LOG.info(
        "workers started: {} slots named {}-<slot>-..., lease {}, logs in {}, master {}",
        config.count(),
        identity.host() + "-" + ProcessHandle.current().pid(),
        config.lease(),
        logFiles.root(),
        config.masterHost());
  }

  private static void archive(WorkflowEngine engine) {
    try {
      int archived = engine.archiveDue();
      if (archived > 0) {
        LOG.info("archived {} finished instances", archived);
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "archiving finished instances failed (tried again in {}): {}",
          ARCHIVE_INTERVAL,
          e.toString());
    }
  }

  /**
   * An EXIT signal asks for a newer generation: the slots claim nothing more (a job claimed
   * meanwhile is handed back unstarted), the running jobs end as usual, then {@link #onRetired}
   * runs. Nothing is killed.
   */
  private void retire(int exitGeneration) {
    if (retiring || stopping) {
      return;
    }
    retiring = true;
    LOG.info(
        "EXIT signal for generation {} (this worker is generation {}): claiming nothing more; exiting after "
            + "the {} running jobs",
        exitGeneration,
        config.generation(),
        running.size());
    idle.wakeAll();
    heartbeat.beat(); // show "retiring" at once
    Thread waiter =
        new Thread(
            () -> {
              joinUntil(Long.MAX_VALUE);
              LOG.info("worker retired: its jobs have ended");
              onRetired.run();
            },
            "flipper-workers-retire");
    waiter.setDaemon(true);
    waiter.start();
  }

  /**
   * True between a successful {@link #start()} and {@link #close()}, unless an EXIT signal retired
   * these workers (they take no more work).
   */
  @Override
  public boolean isReady() {
    return state.isRunning() && !retiring;
  }

  @Override
  public Map<String, Boolean> readiness() {
    return Map.of("workers", isReady());
  }

  /** Where the job logs are served, once {@link #serveLogsAt} named it. */
  @Override
  public List<String> endpoints() {
    String base = logBaseUrl.get();
    return base == null ? List.of() : List.of("logs " + base + "/logs/");
  }

  /** Jobs running now. */
  public int busy() {
    return running.size();
  }

  /**
   * Stops claiming, lets running jobs end within the shutdown grace, hands back the rest; see the
   * class doc.
   */
  @Override
  public void close() {
    if (!state.close()) {
      closeMailer();
      return;
    }
    stopping = true;
    idle.wakeAll();
    long deadline = System.nanoTime() + config.shutdownGrace().toNanos();
    if (!running.isEmpty()) {
      LOG.info(
          "workers stopping: {} jobs running get up to {} to end",
          running.size(),
          config.shutdownGrace());
    }
    joinUntil(deadline);
    if (!running.isEmpty()) {
      LOG.info("workers stopping: handing back {} jobs still running", running.size());
      running.forEach(JobRun::handBack);
    }
    // The kill grace (SIGTERM, then SIGKILL) and the release call take seconds at most.
    joinUntil(System.nanoTime() + Duration.ofSeconds(30).toNanos());
    timer.shutdownNow();
    if (heartbeat != null) {
      heartbeat.remove();
    }
    executor.close();
    LOG.info("worker slots ended");
    closeMailer();
  }

  private void closeMailer() {
    Mailer m = mailer;
    if (m != null) {
      m.close(); // after the slots: their last messages still go out (5s at most)
    }
  }

  private void joinUntil(long deadlineNanos) {
    for (Thread thread : threads) {
      long left =
          deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
      if (left > 0) {
        try {
          thread.join(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
