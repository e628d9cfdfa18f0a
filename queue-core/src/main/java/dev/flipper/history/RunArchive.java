package dev.flipper.history;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the run history records when an instance is archived: its run and every execution of its
 * jobs. Each execution must belong to the run's workflow and instance, and each (job, execution)
 * number appear once (the stores key executions by them).
 */
public record RunArchive(RunRecord run, List<ExecutionRecord> executions) {

  public RunArchive {
    Objects.requireNonNull(run, "run");
    executions = List.copyOf(executions);
    Set<List<Object>> seen = new HashSet<>();
    for (ExecutionRecord e : executions) {
      if (!seen.add(List.of(e.job(), e.execution()))) {
        throw new IllegalArgumentException(
            "run "
                + run.workflow()
                + "/"
                + run.instance()
                + " lists execution "
                + e.execution()
                + " of job "
                + e.job()
                + " twice");
      }
      if (!e.workflow().equals(run.workflow()) || !e.instance().equals(run.instance())) {
        throw new IllegalArgumentException(
            "execution of "
                + e.workflow()
                + "/"
                + e.instance()
                + "/"
                + e.job()
                + " does not belong to run "
                + run.workflow()
                + "/"
                + run.instance());
      }
    }
  }
}
