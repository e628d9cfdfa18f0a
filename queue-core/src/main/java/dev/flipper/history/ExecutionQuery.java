package dev.flipper.history;

import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Which job executions to read, newest start first (ties by instance, job, execution), and which
 * page of them.
 *
 * @param workflow required
 * @param job executions of this job only; null: every job
 * @param instances executions of these instances only (at most {@link #MAX_INSTANCES}); empty: any
 * @param statuses executions whose status is one of these; empty: any
 * @param offset how many matching executions to skip (0 or more)
 * @param limit the page size, 1 to {@link RunQuery#MAX_LIMIT}
 */
public record ExecutionQuery(
    String workflow,
    String job,
    List<String> instances,
    Set<String> statuses,
    int offset,
    int limit) {

  /** The most instances one query names (a grid of recent runs needs far fewer). */
  public static final int MAX_INSTANCES = 1000;

  public ExecutionQuery {
    if (workflow == null || workflow.isEmpty()) {
      throw new IllegalArgumentException("an execution query needs a workflow");
    }
    instances = instances == null ? List.of() : List.copyOf(instances);
    statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
    if (instances.size() > MAX_INSTANCES) {
      throw new IllegalArgumentException(
          "execution query names " + instances.size() + " instances; use at most " + MAX_INSTANCES);
    }
    if (offset < 0) {
      throw new IllegalArgumentException("execution query offset is " + offset + "; use 0 or more");
    }
    if (limit < 1 || limit > RunQuery.MAX_LIMIT) {
      throw new IllegalArgumentException(
          "execution query limit is " + limit + "; use 1 to " + RunQuery.MAX_LIMIT);
    }
  }

  /** Whether an execution passes every filter of this query (the page aside). */
  public boolean matches(ExecutionRecord execution) {
    return workflow.equals(execution.workflow())
        && (job == null || job.equals(execution.job()))
        && (instances.isEmpty() || instances.contains(execution.instance()))
        && (statuses.isEmpty() || statuses.contains(execution.status()));
  }

  /** The order of every page: newest start first, ties by instance, job, execution. */
  public static final Comparator<ExecutionRecord> ORDER =
      Comparator.comparingLong(ExecutionRecord::startMillis)
          .reversed()
          .thenComparing(ExecutionRecord::instance)
          .thenComparing(ExecutionRecord::job)
          .thenComparingInt(ExecutionRecord::execution);

  /** The newest {@code limit} executions of one job across runs. */
  public static ExecutionQuery ofJob(String workflow, String job, int limit) {
    return new ExecutionQuery(workflow, job, null, null, 0, limit);
  }

  /** Every execution of the given instances (at most {@code limit}). */
  public static ExecutionQuery ofInstances(String workflow, List<String> instances, int limit) {
    return new ExecutionQuery(workflow, null, instances, null, 0, limit);
  }
}
