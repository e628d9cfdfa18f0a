package dev.flipper.history;

import java.util.List;

/** One page of job executions and how many match the query in all. */
public record ExecutionPage(List<ExecutionRecord> executions, long total) {

  public ExecutionPage {
    executions = List.copyOf(executions);
  }
}
