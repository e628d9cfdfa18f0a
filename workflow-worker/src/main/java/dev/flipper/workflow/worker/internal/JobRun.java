package dev.flipper.workflow.worker.internal;

import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.Finished;
import dev.flipper.workflow.engine.LeaseLostException;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.worker.WarnTimeoutAlert;
import dev.flipper.workflow.worker.exec.CommandTemplate;
import dev.flipper.workflow.worker.exec.ExecutionListener;
import dev.flipper.workflow.worker.exec.ExecutionParams;
import dev.flipper.workflow.worker.exec.ExecutionResult;
import dev.flipper.workflow.worker.exec.LogFiles;
import dev.flipper.workflow.worker.exec.ShellExecution;
import dev.flipper.workflow.worker.exec.ShellExecutor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One claimed job from start to end, on the slot's thread: render the command, record the start
 * durably, run it, keep the lease, and finish it through the engine (or hand it back when the
 * worker stops). The only method other threads call is {@link #handBack()}. Thread-safe for that.
 */
public final class JobRun {
  /** What became of the job. */
  public enum Outcome {
    /** Finished with success: children may be runnable now. */
    SUCCEEDED,
    /** Finished with a failure (retrying or for good). */
    FAILED,
    /** Not recorded: the lease was lost, the start failed, or the master never took the result. */
    LOST,
    /** Handed back unfinished (the worker is stopping). */
    HANDED_BACK,
    /** Handed back unstarted: the log folder has no room ({@link LogSpace}). */
    NO_ROOM
  }

  /** Everything a job run needs from its worker process. */
  public record Context(
      WorkflowEngine engine,
      ShellExecutor executor,
      ScheduledExecutorService timer,
      Clock clock,
      String host,
      Path workDir,
      Path defaultWorkRoot,
      LogUrls logUrls,
      WarnTimeoutAlert alert,
      LogSpace logSpace) {}

  private static final Logger LOG = LoggerFactory.getLogger(JobRun.class);
  private static final long FINISH_RETRY_MILLIS = 1000;
  static final String STOPPING = "worker stopping: handed back";

  /**
   * The instance parameter the scheduler sets (workflow-scheduler's {@code
   * InstanceStarter.SCHEDULED_TIME}).
   */
  static final String SCHEDULED_TIME = "scheduledTime";

  private final Context ctx;
  private final ClaimedJob job;
  private ShellExecution execution;
  private boolean handBack;

  public JobRun(Context ctx, ClaimedJob job) {
    this.ctx = ctx;
    this.job = job;
  }

  public ClaimedJob job() {
    return job;
  }

  /** {@code <workflow>/<instance>/<job>}, as heartbeats list running jobs. */
  public String key() {
    return job.workflow() + "/" + job.instance() + "/" + job.job();
  }

  /**
   * The worker is stopping: kill the process (if any) and hand the job back instead of finishing
   * it.
   */
  public void handBack() {
    ShellExecution running;
    synchronized (this) {
      handBack = true;
      running = execution;
    }
    if (running != null) {
      running.abort(STOPPING);
    }
  }

  public Outcome run() {
    synchronized (this) {
      if (handBack) {
        release();
        return Outcome.HANDED_BACK;
      }
    }
    Optional<String> noRoom = ctx.logSpace().shortage();
    if (noRoom.isPresent()) {
      LOG.warn(
          "job {}: not started, handing it back for another worker or later: {}",
          job.tokenName(),
          noRoom.get());
      release();
      return Outcome.NO_ROOM;
    }
    String command = CommandTemplate.of(job.command()).render(job.eventAttributeValues());
    Map<String, String> logs;
    Path workDir;
    try {
      logs = logUrls();
      workDir = workDir();
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "job {}: cannot prepare its logs or working directory ({}); handing it back",
          job.tokenName(),
          e.toString());
      release();
      return Outcome.HANDED_BACK;
    }
    try {
      ctx.engine().start(job, new ExecutionStart(command, ctx.host(), logs));
    } catch (LeaseLostException e) {
      LOG.warn(
          "job {}: lost before it started ({}); not running it", job.tokenName(), e.getMessage());
      return Outcome.LOST;
    } catch (RuntimeException e) {
      // Not recorded, so nothing runs; the lease ends and the job is claimed again (by us or
      // another worker).
      LOG.warn(
          "job {}: cannot record its start ({}); not running it, it is claimed again after its lease",
          job.tokenName(),
          e.toString());
      return Outcome.LOST;
    }
    ExecutionParams params =
        ExecutionParams.builder(job.workflow(), job.instance(), job.job())
            .execution(job.execution() - 1)
            .attempt(job.attempt())
            .command(command)
            .cleanup(job.cleanupCommand().orElse(null))
            .workingDirectory(workDir)
            .environment(instanceEnvironment(job.params()))
            .warnTimeout(job.warnTimeout().orElse(null))
            .abortTimeout(job.abortTimeout().orElse(null))
            .build();
    LeaseKeeper[] keeper = new LeaseKeeper[1];
    ShellExecution prepared =
        ctx.executor()
            .prepare(
                params,
                new ExecutionListener() {
                  @Override
                  public void onProperties(Map<String, List<String>> properties) {
                    keeper[0].properties(properties);
                  }

                  @Override
                  public void onWarnTimeout(Duration warnTimeout) {
                    LOG.warn(
                        "job {} (attempt {}, worker {}) has run longer than its warn time-out {}",
                        job.tokenName(),
                        job.attempt(),
                        job.worker(),
                        warnTimeout);
                    try {
                      ctx.alert().warn(job, warnTimeout);
                    } catch (RuntimeException e) {
                      LOG.warn(
                          "job {}: the warn time-out alert failed: {}",
                          job.tokenName(),
                          e.toString());
                    }
                  }
                });
    boolean stopping;
    synchronized (this) {
      execution = prepared;
      stopping = handBack;
    }
    try (LeaseKeeper lease =
        new LeaseKeeper(
            ctx.engine(), job, ctx.timer(), ctx.clock(), prepared::abort, prepared::abort)) {
      keeper[0] = lease;
      if (stopping) {
        prepared.abort(STOPPING);
      }
      ExecutionResult result = prepared.run();
      if (lease.lost()) {
        return Outcome.LOST;
      }
      synchronized (this) {
        stopping = handBack;
      }
      if (stopping && result.aborted() && !result.succeeded()) {
        release();
        return Outcome.HANDED_BACK;
      }
      return finish(result, lease);
    }
  }

  private Outcome finish(ExecutionResult result, LeaseKeeper lease) {
    String endReason =
        result.error() != null
            ? result.error()
            : result.timedOut() ? "abort timeout" : result.abortReason();
    dev.flipper.workflow.engine.ExecutionResult recorded =
        new dev.flipper.workflow.engine.ExecutionResult(
            result.exitCode(),
            result.cleanupExitCode(),
            result.properties(),
            result.succeeded() ? null : endReason);
    boolean warned = false;
    while (true) {
      try {
        Finished finished = ctx.engine().finish(job, recorded);
        LOG.debug("job {} finished: exit {}, {}", job.tokenName(), result.exitCode(), finished);
        return finished.outcome() == Finished.Outcome.SUCCEEDED
            ? Outcome.SUCCEEDED
            : Outcome.FAILED;
      } catch (LeaseLostException e) {
        LOG.warn(
            "job {}: result (exit {}) not recorded, the lease was lost: {}",
            job.tokenName(),
            result.exitCode(),
            e.getMessage());
        return Outcome.LOST;
      } catch (RuntimeException e) {
        // A master restart: retried until the lease ends, which the keeper still renews when it
        // can.
        if (lease.lost()
            || ctx.clock().millis() + FINISH_RETRY_MILLIS >= job.leaseEnd().toEpochMilli()) {
          LOG.warn(
              "job {}: result (exit {}) not recorded, the master did not answer before the lease ended: {}",
              job.tokenName(),
              result.exitCode(),
              e.toString());
          return Outcome.LOST;
        }
        if (!warned) {
          LOG.warn(
              "job {}: cannot record its result yet, retrying until {}: {}",
              job.tokenName(),
              job.leaseEnd(),
              e.toString());
          warned = true;
        }
        try {
          Thread.sleep(FINISH_RETRY_MILLIS);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return Outcome.LOST;
        }
      }
    }
  }

  /**
   * Variables from the instance's parameters: {@code FLIPPER_SCHEDULED_TIME}, the slot (ISO-8601
   * UTC) of an instance the scheduler or a backfill started. Pinball had no such variable, so there
   * is no PINBALL_ name.
   */
  static Map<String, String> instanceEnvironment(Map<String, String> params) {
    Map<String, String> env = new LinkedHashMap<>();
    Optional.ofNullable(params.get(SCHEDULED_TIME))
        .ifPresent(t -> env.put("FLIPPER_SCHEDULED_TIME", t));
    return env;
  }

  private void release() {
    try {
      ctx.engine().release(job);
      LOG.info("job {} handed back", job.tokenName());
    } catch (RuntimeException e) {
      LOG.warn(
          "job {}: cannot hand it back ({}); it is claimed again after its lease",
          job.tokenName(),
          e.toString());
    }
  }

  private Map<String, String> logUrls() throws IOException {
    LogFiles files = ctx.executor().logFiles();
    LogFiles.AttemptLogs paths =
        files.create(job.workflow(), job.instance(), job.job(), job.attempt());
    Map<String, String> urls = new LinkedHashMap<>();
    Optional.ofNullable(ctx.logUrls().url(files.relative(paths.stdout())))
        .ifPresent(u -> urls.put("stdout", u));
    Optional.ofNullable(ctx.logUrls().url(files.relative(paths.stderr())))
        .ifPresent(u -> urls.put("stderr", u));
    return urls;
  }

  /**
   * workers.workDir, or a directory of its own per instance, shared by the instance's jobs on this
   * host.
   */
  private Path workDir() throws IOException {
    Path dir =
        ctx.workDir() != null
            ? ctx.workDir()
            : ctx.defaultWorkRoot()
                .resolve(LogFiles.safeName(job.workflow()))
                .resolve(LogFiles.safeName(job.instance()));
    Files.createDirectories(dir);
    return dir;
  }
}
