package dev.flipper.workflow.ui;

import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.JobDetail;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The chain of jobs that determined when a run ended: it starts at the job whose last execution
 * ended last (a running one ends now), and goes on to the parent that finished last before that
 * job's last run started, and so on until a job none of whose parents finished before it started
 * (the first jobs). Shortening any other job would not have ended the run sooner. Stateless.
 */
final class CriticalPath {
  private CriticalPath() {}

  /** The jobs of the path, first to last; empty if nothing ran. */
  static List<String> of(List<JobDetail> jobs, Instant now) {
    Map<String, JobDetail> byName = new HashMap<>();
    jobs.forEach(j -> byName.put(j.name(), j));
    Optional<JobDetail> last = Optional.empty();
    for (JobDetail job : jobs) {
      // On a tie the later job in run order: the one more likely downstream.
      if (!job.executions().isEmpty()
          && (last.isEmpty() || !end(job, now).isBefore(end(last.get(), now)))) {
        last = Optional.of(job);
      }
    }
    List<String> path = new ArrayList<>();
    while (last.isPresent() && !path.contains(last.get().name())) {
      JobDetail job = last.get();
      path.add(job.name());
      last = latestParentBefore(job, byName, now);
    }
    Collections.reverse(path);
    return path;
  }

  /**
   * The executions of a job's last run: from its last first attempt (a retry continues a run,
   * poison or redo starts a new one at attempt 1) to its last execution.
   */
  static List<ExecutionDetail> lastRun(JobDetail job) {
    List<ExecutionDetail> executions = job.executions();
    int from = 0;
    for (int i = executions.size() - 1; i >= 0; i--) {
      if (executions.get(i).attempt() <= 1) {
        from = i;
        break;
      }
    }
    return executions.subList(from, executions.size());
  }

  /** The parent that ended last before the job's last run started (any of its executions). */
  private static Optional<JobDetail> latestParentBefore(
      JobDetail job, Map<String, JobDetail> byName, Instant now) {
    Instant started = lastRun(job).get(0).start();
    JobDetail latest = null;
    Instant latestEnd = null;
    for (String name : job.needs()) {
      JobDetail parent = byName.get(name); // the start marker (__WORKFLOW_START__) is no job
      if (parent == null) {
        continue;
      }
      for (ExecutionDetail e : parent.executions()) {
        Instant end = e.end().orElse(now);
        if (!end.isAfter(started) && (latestEnd == null || end.isAfter(latestEnd))) {
          latest = parent;
          latestEnd = end;
        }
      }
    }
    return Optional.ofNullable(latest);
  }

  /** When the job's last execution ended; now while it runs. */
  private static Instant end(JobDetail job, Instant now) {
    return job.lastExecution().orElseThrow().end().orElse(now);
  }
}
