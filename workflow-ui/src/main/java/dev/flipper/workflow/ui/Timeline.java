package dev.flipper.workflow.ui;

import dev.flipper.text.Readable;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.ui.view.TimelineBar;
import dev.flipper.workflow.ui.view.TimelineRow;
import dev.flipper.workflow.ui.view.TimelineView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Builds an instance's timeline: a row per job in the instance's job order, a bar per execution
 * (each attempt its own bar), the axis ({@link TimelineAxis}) and the critical path ({@link
 * CriticalPath}). The axis spans from the instance's start (or an earlier execution's) to its end
 * (or a later execution's), or to now while it runs. Stateless.
 */
public final class Timeline {
  /**
   * The narrowest a bar is drawn, in percent of the axis: an attempt of a second in a run of hours
   * is still something to point at.
   */
  public static final double MIN_WIDTH_PERCENT = 1.0;

  private Timeline() {}

  /**
   * @param jobs the instance's jobs in run order, as the engine reads them
   * @param end the instance's end, empty while it runs
   */
  static TimelineView of(
      String workflow,
      String instance,
      Instant start,
      Optional<Instant> end,
      List<JobDetail> jobs,
      Instant now) {
    Instant from = start;
    Instant to = end.orElse(now);
    for (JobDetail job : jobs) {
      for (ExecutionDetail e : job.executions()) {
        from = e.start().isBefore(from) ? e.start() : from;
        Instant ended = e.end().orElse(now);
        to = ended.isAfter(to) ? ended : to;
      }
    }
    long span = Math.max(1, to.toEpochMilli() - from.toEpochMilli());
    List<String> path = CriticalPath.of(jobs, now);
    List<TimelineRow> rows = new ArrayList<>();
    for (JobDetail job : jobs) {
      boolean critical = path.contains(job.name());
      Set<Integer> criticalExecutions = new HashSet<>();
      if (critical) {
        CriticalPath.lastRun(job).forEach(e -> criticalExecutions.add(e.execution()));
      }
      Placement placement = new Placement(from, span, now, job.executions());
      List<TimelineBar> bars = new ArrayList<>();
      for (int i = 0; i < job.executions().size(); i++) {
        ExecutionDetail e = job.executions().get(i);
        bars.add(
            bar(
                workflow,
                instance,
                job.name(),
                e,
                now,
                placement.left(i),
                placement.width(i),
                criticalExecutions.contains(e.execution())));
      }
      rows.add(new TimelineRow(job.name(), job.status().name(), critical, bars));
    }
    boolean running = end.isEmpty();
    return new TimelineView(
        from.toString(),
        to.toString(),
        span,
        running,
        running ? round(100.0 * (now.toEpochMilli() - from.toEpochMilli()) / span) : null,
        TimelineAxis.ticks(span),
        rows,
        path);
  }

  private static TimelineBar bar(
      String workflow,
      String instance,
      String job,
      ExecutionDetail e,
      Instant now,
      double left,
      double width,
      boolean critical) {
    long duration = Math.max(0, e.end().orElse(now).toEpochMilli() - e.start().toEpochMilli());
    String status = status(e);
    String label =
        job
            + " attempt "
            + e.attempt()
            + (e.execution() == e.attempt() ? "" : " (execution " + e.execution() + ")")
            + ": "
            + status
            + ", "
            + Readable.millis(duration)
            + (e.exitCode() != null
                ? ", exit " + e.exitCode()
                : e.endReason() != null ? ", " + e.endReason() : "")
            + (critical ? ", on the critical path" : "");
    return new TimelineBar(
        job,
        e.execution(),
        e.attempt(),
        status,
        e.start().toString(),
        e.end().map(Instant::toString).orElse(null),
        duration,
        e.exitCode(),
        e.endReason(),
        e.worker(),
        e.host(),
        left,
        width,
        critical,
        label,
        link(workflow, instance, job, e));
  }

  /** SUCCESS (exit 0), FAILURE (any other exit, or none) or RUNNING. */
  static String status(ExecutionDetail e) {
    if (e.running()) {
      return "RUNNING";
    }
    return e.exitCode() != null && e.exitCode() == 0 ? "SUCCESS" : "FAILURE";
  }

  /** Its stdout log (else its first log), or the job's page when it has none. */
  private static String link(String workflow, String instance, String job, ExecutionDetail e) {
    if (e.logs().isEmpty()) {
      return Links.job(workflow, instance, job);
    }
    String stream =
        e.logs().containsKey("stdout") ? "stdout" : new TreeSet<>(e.logs().keySet()).first();
    return Links.log(workflow, instance, job, e.execution(), stream);
  }

  static double round(double percent) {
    return Math.round(percent * 100) / 100.0;
  }

  /**
   * Where one row's bars go, in percent of the axis: at their times, each at least {@link
   * #MIN_WIDTH_PERCENT} wide. A widened bar pushes the next one right by what it overlaps; the last
   * ones are then pulled back inside the axis, so bars neither overlap nor leave it.
   */
  private static final class Placement {
    private final double[] left;
    private final double[] right;

    Placement(Instant from, long span, Instant now, List<ExecutionDetail> executions) {
      int n = executions.size();
      left = new double[n];
      right = new double[n];
      double cursor = 0;
      for (int i = 0; i < n; i++) {
        ExecutionDetail e = executions.get(i);
        double start = 100.0 * (e.start().toEpochMilli() - from.toEpochMilli()) / span;
        double end = 100.0 * (e.end().orElse(now).toEpochMilli() - from.toEpochMilli()) / span;
        left[i] = Math.max(start, cursor);
        right[i] = Math.max(end, left[i] + MIN_WIDTH_PERCENT);
        cursor = right[i];
      }
      double limit = 100;
      for (int i = n - 1; i >= 0; i--) {
        right[i] = Math.min(right[i], limit);
        left[i] = Math.max(0, Math.min(left[i], right[i] - MIN_WIDTH_PERCENT));
        limit = left[i];
      }
    }

    double left(int i) {
      return round(left[i]);
    }

    double width(int i) {
      return round(Math.max(0, round(right[i]) - round(left[i])));
    }
  }
}
