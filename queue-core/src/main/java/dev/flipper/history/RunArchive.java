package dev.flipper.history;

import java.util.List;
import java.util.Objects;

/**
 * What the run history records when an instance is archived: its run and every execution of its
 * jobs. Each execution must belong to the run's workflow and instance.
 */
public record RunArchive(RunRecord run, List<ExecutionRecord> executions) {

  public RunArchive {
    Objects.requireNonNull(run, "run");
    executions = List.copyOf(executions);
    for (ExecutionRecord e : executions) {
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
