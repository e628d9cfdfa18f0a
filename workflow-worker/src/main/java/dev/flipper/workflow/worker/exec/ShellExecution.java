package dev.flipper.workflow.worker.exec;

import dev.flipper.text.DurationText;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of one job: runs its command in a process group of its own, logs stdout and stderr,
 * collects properties, applies the warn and abort time-outs and runs the cleanup command after a
 * failure.
 *
 * <p>{@link #run()} is called once, by the thread that owns the job; {@link #abort} may be called
 * from any thread at any time (lease lost, abort signal, worker stop). An abort that comes before
 * the process has started prevents it: the check and the spawn happen under one lock. Thread-safe.
 *
 * <p>Abort, by time-out or by request, sends SIGTERM to the whole process group and SIGKILL after
 * the executor's kill grace (see {@link ShellExecutor.Builder#killGrace}). The cleanup command,
 * which exists to undo what an aborted or failed job left behind, still runs after an abort,
 * bounded by its own time-out; an abort does not stop it.
 */
public final class ShellExecution {
  private static final Logger log = LoggerFactory.getLogger(ShellExecution.class);
  private static final String NOTE = "[flipper] ";

  private final ShellExecutor executor;
  private final ExecutionParams params;
  private final ExecutionListener listener;
  private final PropertyCollector properties = new PropertyCollector();
  private final AtomicBoolean ran = new AtomicBoolean();
  private final AtomicBoolean warned = new AtomicBoolean();

  private final Object lock = new Object();
  // Guarded by lock: the first abort wins; main is the job's process group while it may still need
  // killing;
  // mainEnded is set once the command has ended (or could not start), after which an abort changes
  // nothing: the
  // result must not say "aborted" about a command that ended on its own.
  private String abortReason;
  private boolean timedOut;
  private ProcessGroup main;
  private boolean mainEnded;

  ShellExecution(ShellExecutor executor, ExecutionParams params, ExecutionListener listener) {
    this.executor = executor;
    this.params = params;
    this.listener = listener;
  }

  public ExecutionParams params() {
    return params;
  }

  /** The properties collected so far (an immutable snapshot). */
  public Map<String, List<String>> properties() {
    return properties.snapshot();
  }

  /**
   * Aborts the execution: kills the job's process group if it runs, or prevents it from starting.
   * Only the first abort counts; later calls, and calls after the command has ended (while its
   * cleanup runs), do nothing. Returns once the signal is sent (a few milliseconds: it runs {@code
   * kill}); {@link #run()} returns when the processes are gone.
   */
  public void abort(String reason) {
    abort(reason, false);
  }

  /**
   * Runs the attempt and returns how it ended; blocks until the command (and its cleanup) are done.
   * Interrupting the calling thread aborts the execution; the interrupt flag is set again on
   * return.
   *
   * @throws IllegalStateException if called twice
   */
  public ExecutionResult run() {
    if (!ran.compareAndSet(false, true)) {
      throw new IllegalStateException("execution " + id() + " has already run");
    }
    Instant start = executor.clock().instant();
    if (params.disabled()) {
      return new ExecutionResult(
          ExecutionResult.DISABLED, 0, start, start, Map.of(), null, null, null, false, null, null);
    }
    LogFiles.AttemptLogs logs;
    try {
      logs =
          executor
              .logFiles()
              .create(params.workflow(), params.instance(), params.job(), params.attempt());
    } catch (IOException | RuntimeException e) {
      log.warn("execution {}: cannot create its log files: {}", id(), e.toString());
      return notStarted(start, null, "cannot create the log files: " + e);
    }
    boolean interrupted = false;
    LogSink out = null;
    LogSink err = null;
    try {
      out = new LogSink(logs.stdout(), executor.maxLogBytes());
      err = new LogSink(logs.stderr(), executor.maxLogBytes());
      ProcessGroup group;
      synchronized (lock) {
        if (abortReason != null) {
          mainEnded = true;
          err.note(NOTE + "aborted before start: " + abortReason);
          return result(start, ExitCodes.NOT_STARTED, logs, null, null);
        }
        try {
          group =
              ProcessGroup.start(
                  params.command(), params.workingDirectory(), environment(), executor.killGrace());
        } catch (IOException | RuntimeException e) {
          mainEnded = true;
          err.note(NOTE + "could not start the command: " + e);
          return result(
              start, ExitCodes.NOT_STARTED, logs, null, "could not start the command: " + e);
        }
        main = group;
      }
      List<TaskTimer.Scheduled> timers = scheduleTimeouts();
      Outcome outcome = waitFor(group, out, err, properties);
      interrupted = outcome.interrupted;
      timers.forEach(TaskTimer.Scheduled::cancel);
      synchronized (lock) {
        main = null;
        mainEnded = true;
        if (abortReason != null) {
          outcome.err.note(NOTE + "aborted: " + abortReason);
        }
      }
      out = outcome.out;
      err = outcome.err;
      int exitCode = ExitCodes.fromProcess(outcome.exitValue);
      Integer cleanupExitCode = null;
      if (exitCode != 0 && params.cleanup() != null) {
        Outcome cleanup = cleanup(out, err);
        if (cleanup != null) {
          interrupted |= cleanup.interrupted;
          out = cleanup.out;
          err = cleanup.err;
          cleanupExitCode = ExitCodes.fromProcess(cleanup.exitValue);
        }
      }
      return result(start, exitCode, logs, cleanupExitCode, null);
    } catch (IOException | RuntimeException e) {
      log.warn("execution {} failed: {}", id(), e.toString(), e);
      return result(start, ExitCodes.NOT_STARTED, logs, null, e.toString());
    } finally {
      closeQuietly(out);
      closeQuietly(err);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void abort(String reason, boolean byTimeout) {
    ProcessGroup group;
    synchronized (lock) {
      if (abortReason != null || mainEnded) {
        return;
      }
      abortReason = reason == null || reason.isEmpty() ? "aborted" : reason;
      timedOut = byTimeout;
      group = main;
    }
    log.info("execution {}: aborting: {}", id(), abortReason);
    if (group != null) {
      kill(group);
    }
  }

  /**
   * SIGTERM to the group, SIGKILL after the grace; the SIGKILL also ends members that survived the
   * shell.
   */
  private void kill(ProcessGroup group) {
    Duration grace = executor.killGrace();
    if (grace.isZero()) {
      group.signal(ProcessGroup.Signal.KILL);
      return;
    }
    group.signal(ProcessGroup.Signal.TERM);
    executor.timer().schedule(grace, () -> group.signal(ProcessGroup.Signal.KILL));
  }

  private List<TaskTimer.Scheduled> scheduleTimeouts() {
    TaskTimer timer = executor.timer();
    Duration warn = params.warnTimeout();
    Duration abort = params.abortTimeout();
    List<TaskTimer.Scheduled> timers = new ArrayList<>(2);
    if (warn != null) {
      timers.add(
          timer.schedule(
              warn,
              () -> {
                if (warned.compareAndSet(false, true)) {
                  log.info(
                      "execution {}: still running after its warn time-out of {}",
                      id(),
                      DurationText.format(warn));
                  listener.onWarnTimeout(warn);
                }
              }));
    }
    if (abort != null) {
      timers.add(
          timer.schedule(
              abort,
              () -> abort("abort time-out of " + DurationText.format(abort) + " exceeded", true)));
    }
    return timers;
  }

  /** Runs the cleanup command if it can be rendered; returns null if it did not run. */
  private Outcome cleanup(LogSink out, LogSink err) throws IOException {
    Map<String, List<String>> props = properties.snapshot();
    CommandTemplate template = params.cleanup();
    if (template.uses(CommandTemplate.KILL_ID)
        && props.getOrDefault(CommandTemplate.KILL_ID, List.of()).isEmpty()) {
      // Running "./kill.sh " with an empty id could kill far more than this job's work: skip it.
      err.note(
          NOTE
              + "cleanup not run: its command needs %(kill_id)s and the job printed no FLIPPER:kill_id=… line");
      return null;
    }
    String command = template.renderCleanup(props);
    String begin = "<<<<<<<<<< flipper: start of cleanup: " + command + " >>>>>>>>>>";
    out.note(begin);
    err.note(begin);
    ProcessGroup group;
    try {
      group =
          ProcessGroup.start(
              command, params.workingDirectory(), environment(), executor.killGrace());
    } catch (IOException | RuntimeException e) {
      String end = "<<<<<<<<<< flipper: end of cleanup: could not start: " + e + " >>>>>>>>>>";
      out.note(end);
      err.note(end);
      return new Outcome(ExitCodes.NOT_STARTED, out, err, false);
    }
    Duration timeout = executor.cleanupTimeout();
    AtomicBoolean cleanupTimedOut = new AtomicBoolean();
    TaskTimer.Scheduled timer =
        executor
            .timer()
            .schedule(
                timeout,
                () -> {
                  cleanupTimedOut.set(true);
                  kill(group);
                });
    Outcome outcome = waitFor(group, out, err, null);
    timer.cancel();
    String end =
        "<<<<<<<<<< flipper: end of cleanup: exit code "
            + ExitCodes.fromProcess(outcome.exitValue)
            + (cleanupTimedOut.get()
                ? " (killed after its time-out of " + DurationText.format(timeout) + ")"
                : "")
            + " >>>>>>>>>>";
    outcome.out.note(end);
    outcome.err.note(end);
    return outcome;
  }

  /**
   * How a process ended, and the log sinks to go on with (new ones if the old ones were given up
   * on).
   */
  private record Outcome(int exitValue, LogSink out, LogSink err, boolean interrupted) {}

  /**
   * Copies the process's output to the logs until it exits and its output ends (or the drain
   * time-out passes), and returns its exit value.
   */
  private Outcome waitFor(ProcessGroup group, LogSink out, LogSink err, PropertyCollector props)
      throws IOException {
    Process process = group.process();
    Runnable onProperty = () -> listener.onProperties(properties.snapshot());
    Thread stdout =
        pump(new OutputPump(process.getInputStream(), out, props, onProperty), "stdout");
    Thread stderr =
        pump(new OutputPump(process.getErrorStream(), err, props, onProperty), "stderr");
    boolean interrupted = false;
    int exitValue;
    while (true) {
      try {
        exitValue = process.waitFor();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
        abort("the worker thread running the job was interrupted");
      }
    }
    boolean aborted;
    synchronized (lock) {
      aborted = abortReason != null;
    }
    // After an abort, members of the group may still be using the kill grace to stop; the SIGKILL
    // ends the output.
    Duration drain =
        aborted ? executor.drainTimeout().plus(executor.killGrace()) : executor.drainTimeout();
    long deadline = System.nanoTime() + drain.toNanos();
    for (Thread t : List.of(stdout, stderr)) {
      while (t.isAlive()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          t.join(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (stdout.isAlive() || stderr.isAlive()) {
      // Something the job started in the background still holds its output. Those pumps keep the
      // old sinks, which now drop their writes, so later output is read (never blocking the writer)
      // but not logged; we go on with new sinks on the same files, within the same cap.
      String note =
          NOTE
              + "the command exited but a background process still holds its output after "
              + drain
              + "; its further output is not logged";
      err.note(note);
      out = out.detach();
      err = err.detach();
    }
    return new Outcome(exitValue, out, err, interrupted);
  }

  private Thread pump(OutputPump pump, String stream) {
    Thread t = new Thread(pump, "flipper-job-" + params.job() + "-" + stream);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private Map<String, String> environment() {
    Map<String, String> env = new HashMap<>(executor.baseEnvironment());
    env.putAll(params.extraEnvironment());
    env.putAll(params.identityEnvironment());
    return env;
  }

  private ExecutionResult notStarted(Instant start, LogFiles.AttemptLogs logs, String error) {
    return result(start, ExitCodes.NOT_STARTED, logs, null, error);
  }

  private ExecutionResult result(
      Instant start,
      int exitCode,
      LogFiles.AttemptLogs logs,
      Integer cleanupExitCode,
      String error) {
    String reason;
    boolean byTimeout;
    synchronized (lock) {
      reason = abortReason;
      byTimeout = timedOut;
    }
    return new ExecutionResult(
        params.command(),
        exitCode,
        start,
        executor.clock().instant(),
        properties.snapshot(),
        logs == null ? null : logs.stdout(),
        logs == null ? null : logs.stderr(),
        reason,
        byTimeout,
        cleanupExitCode,
        error);
  }

  private String id() {
    return params.workflow()
        + "/"
        + params.instance()
        + "/"
        + params.job()
        + "#"
        + params.attempt();
  }

  private static void closeQuietly(LogSink sink) {
    if (sink == null) {
      return;
    }
    try {
      sink.close();
    } catch (RuntimeException e) {
      log.warn("{}", e.toString());
    }
  }
}
