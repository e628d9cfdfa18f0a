package dev.flipper.workflow.worker.exec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A shell command running in a session (and so a process group) of its own, which can be signalled
 * as a whole, and which does not outlive the worker process that started it. Thread-safe.
 *
 * <p>How: the JDK cannot call setsid(2) nor signal a process group. We start {@code setsid -w
 * /bin/sh -c SUPERVISOR} (util-linux). A process that Java starts is never a process-group leader,
 * so setsid calls setsid(2) and then execs the shell in the same process: the pid Java gives us is
 * the supervisor shell's, and it is also the id of the new session and process group, which every
 * descendant inherits unless it leaves on purpose. ({@code -w} only matters if setsid ever had to
 * fork; it then waits for the shell and passes its exit status on.)
 *
 * <p>The supervisor runs the command as its child ({@code /bin/sh -c COMMAND}, stdin from
 * /dev/null) and passes its exit status on. Its own stdin is a pipe from this JVM that nobody
 * writes to: a watcher in the supervisor reads it, and end of file means the worker process is gone
 * (killed, crashed, out of memory), since the kernel closes a dead process's end of every pipe. The
 * watcher then sends SIGTERM to the group and SIGKILL after the kill grace, so a job never keeps
 * running beside its re-run once its lease expires (docs/workflows.md, "When a worker dies"). The
 * supervisor ignores SIGTERM, so when we signal the group it still reports how its command ended.
 *
 * <p>To signal, we run {@code /bin/sh -c 'kill -s SIG -- -PGID'}: kill(2) with a negative pid
 * reaches every process of the group, including grandchildren whose parent already died. We also
 * signal, through {@link ProcessHandle}, every descendant seen just before: that covers a
 * descendant that moved to another group ({@code set -m}) and the window before setsid(2) has run.
 * A descendant that both left the group and lost its parent (a daemon that double-forks with
 * setsid) escapes, as it would escape any process-group kill.
 *
 * <p>Without {@code setsid} on the PATH's usual places (not Linux), the shell shares the worker's
 * group and only the {@link ProcessHandle} descendants are signalled, which misses orphaned
 * grandchildren; a warning says so once. The supervisor then ends only the command's shell when the
 * worker dies.
 */
final class ProcessGroup {
  enum Signal {
    TERM,
    KILL
  }

  private static final Logger log = LoggerFactory.getLogger(ProcessGroup.class);
  private static final List<Path> SETSID_CANDIDATES =
      List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));
  private static final Path SETSID = findSetsid();

  /**
   * Run as {@code sh -c SUPERVISOR flipper-job COMMAND GRACE_SECONDS TARGET}, TARGET being what to
   * kill when the worker is gone: {@code group} (this shell's process group) or {@code job} (the
   * command's shell only). A background list's stdin would be /dev/null, so the watcher reads the
   * pipe through descriptor 3.
   */
  private static final String SUPERVISOR =
      String.join(
          "\n",
          "exec 3<&0",
          "/bin/sh -c \"$1\" </dev/null 3<&- &",
          "job=$!",
          "if [ \"$3\" = group ]; then target=-$$; else target=$job; fi",
          "{",
          "  while read -r _; do :; done",
          "  trap '' TERM",
          "  kill -s TERM -- $target 2>/dev/null",
          "  if [ \"$2\" -gt 0 ]; then sleep \"$2\"; fi",
          "  kill -s KILL -- $target 2>/dev/null",
          "} <&3 &",
          "watcher=$!",
          "exec 3<&-",
          "trap '' TERM",
          "wait $job",
          "status=$?",
          "kill $watcher 2>/dev/null",
          "exit $status");

  private final Process process;
  private final boolean ownGroup;

  private ProcessGroup(Process process, boolean ownGroup) {
    this.process = process;
    this.ownGroup = ownGroup;
  }

  /**
   * Starts {@code /bin/sh -c command} in its own session, under a supervisor that ends the session
   * when this JVM is gone.
   *
   * @param environment the complete environment of the command
   * @param killGrace how long the command gets between SIGTERM and SIGKILL when this JVM is gone
   */
  static ProcessGroup start(
      String command, Path workingDirectory, Map<String, String> environment, Duration killGrace)
      throws IOException {
    List<String> argv = new ArrayList<>();
    if (SETSID != null) {
      argv.add(SETSID.toString());
      argv.add("-w");
    }
    long graceSeconds = (killGrace.toMillis() + 999) / 1000;
    argv.addAll(
        List.of(
            "/bin/sh",
            "-c",
            SUPERVISOR,
            "flipper-job",
            command,
            Long.toString(graceSeconds),
            SETSID != null ? "group" : "job"));
    ProcessBuilder pb = new ProcessBuilder(argv).directory(workingDirectory.toFile());
    pb.environment().clear();
    pb.environment().putAll(environment);
    // stdin stays a pipe that is never written to: it closes when this JVM dies (the command reads
    // /dev/null).
    return new ProcessGroup(pb.start(), SETSID != null);
  }

  Process process() {
    return process;
  }

  long pid() {
    return process.pid();
  }

  /**
   * Sends the signal to the whole group (and to the descendants known now). Safe to call after the
   * end.
   */
  void signal(Signal signal) {
    List<ProcessHandle> descendants = process.descendants().toList();
    if (ownGroup) {
      killGroup(signal);
    }
    for (ProcessHandle p : descendants) {
      destroy(p, signal);
    }
    destroy(process.toHandle(), signal);
  }

  private void killGroup(Signal signal) {
    // The group outlives its leader while any member lives, so this works after the shell has
    // exited too.
    // "No such process" (the group is already gone) is expected and ignored.
    ProcessBuilder pb =
        new ProcessBuilder("/bin/sh", "-c", "kill -s " + signal + " -- -" + pid() + " 2>/dev/null")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    try {
      Process kill = pb.start();
      if (!kill.waitFor(10, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        log.warn("kill -s {} -- -{} did not finish in 10 s", signal, pid());
      }
    } catch (IOException e) {
      log.warn("cannot run kill for the process group {}: {}", pid(), e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void destroy(ProcessHandle p, Signal signal) {
    if (signal == Signal.KILL) {
      p.destroyForcibly();
    } else {
      p.destroy();
    }
  }

  private static Path findSetsid() {
    for (Path p : SETSID_CANDIDATES) {
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    LoggerFactory.getLogger(ProcessGroup.class)
        .warn(
            "setsid (util-linux) not found in {}: jobs run in the worker's process group and killing a job reaches only"
                + " the processes still below it; install util-linux",
            SETSID_CANDIDATES);
    return null;
  }
}
