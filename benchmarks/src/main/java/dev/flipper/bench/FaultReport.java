package dev.flipper.bench;

import java.io.PrintWriter;
import java.util.List;

/**
 * The table {@code flipper bench faults} prints: one row per store, then each fault's recovery
 * time.
 */
final class FaultReport {
  private FaultReport() {}

  static void print(PrintWriter out, List<FaultRun.Result> results, int jobs, double loadAverage) {
    out.println();
    out.println(
        FaultBenchmark.format(
            "Fault harness: %,d jobs per store; load average %.1f", jobs, loadAverage));
    out.println(
        FaultBenchmark.format(
            "| %-7s | %7s | %4s | %8s | %8s | %13s | %14s | %15s | %-34s |",
            "store",
            "seconds",
            "lost",
            "runs",
            "re-runs",
            "after ack ok",
            "bound (flight)",
            "double enqueue",
            "recovery ms min/median/max (kind)"));
    out.println(
        "|---------|---------|------|----------|----------|---------------|----------------|-----------------|"
            + "------------------------------------|");
    for (FaultRun.Result r : results) {
      out.println(
          FaultBenchmark.format(
              "| %-7s | %7.1f | %4d | %8d | %8d | %13d | %14d | %15d | %-34s |",
              r.store(),
              r.millis() / 1000.0,
              r.lost(),
              r.runs(),
              r.reruns(),
              r.runsAfterAck(),
              r.duplicateBound(),
              r.doubleEnqueues(),
              recoveries(r.faults())));
      if (r.timedOut()) {
        out.println("  " + r.store() + ": TIMED OUT before every job ran");
      }
    }
    out.println();
    for (FaultRun.Result r : results) {
      StringBuilder line = new StringBuilder(r.store()).append(" faults (kind@jobs: recovery ms):");
      for (FaultRun.Fault f : r.faults()) {
        line.append(' ')
            .append(f.kind())
            .append('@')
            .append(f.atJobs())
            .append(": ")
            .append(f.recoveryMillis())
            .append(';');
      }
      out.println(line);
    }
    out.println(
        "lost: jobs never run (must be 0). re-runs: runs beyond a job's first. after ack ok: runs started after "
            + "the job's success ack was confirmed; with the re-runs, at most the bound (jobs in flight at the faults).");
    out.println(
        "recovery: from the fault to the first job run after it (S server SIGKILL + restart, W worker SIGKILL + "
            + "new worker, D store restart); -1 = every job had run already.");
  }

  private static String recoveries(List<FaultRun.Fault> faults) {
    StringBuilder s = new StringBuilder();
    for (String kind : List.of("server-kill", "worker-kill", "store-restart")) {
      long[] ms =
          faults.stream()
              .filter(f -> f.kind().equals(kind) && f.recoveryMillis() >= 0)
              .mapToLong(FaultRun.Fault::recoveryMillis)
              .sorted()
              .toArray();
      if (ms.length > 0) {
        s.append(s.length() > 0 ? " " : "")
            .append(ms[0])
            .append('/')
            .append(ms[ms.length / 2])
            .append('/')
            .append(ms[ms.length - 1])
            .append(' ')
            .append(kind.charAt(0) == 'w' ? "W" : kind.charAt(1) == 'e' ? "S" : "D");
      }
    }
    return s.toString();
  }
}
