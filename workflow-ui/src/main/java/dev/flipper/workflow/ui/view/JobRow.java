package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * One job of an instance. Immutable; times ISO-8601 UTC text or null.
 *
 * @param heldBy the worker (or engine hold such as {@code retry-delay}) holding its token, or null
 * @param lastStart start of its last execution; {@code lastEnd} null while that one runs
 */
public record JobRow(
    String name,
    String status,
    List<String> needs,
    int attempt,
    int maxAttempts,
    boolean condition,
    boolean disabled,
    double priority,
    String heldBy,
    int executions,
    String lastStart,
    String lastEnd,
    Long durationMillis) {
  public JobRow {
    needs = List.copyOf(needs);
  }
}
