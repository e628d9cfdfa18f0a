package dev.flipper.workflow.scheduler;

import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.scheduler.time.CronExpressions;
import java.util.ArrayList;
import java.util.List;

/**
 * What the scheduler cannot run among definitions that passed queue-core's validation: queue-core
 * checks a cron expression's shape (and names file and line) without a cron library, so that the
 * client SDK stays light; this reads each expression with cron-utils, as the scheduler will. Call
 * it before storing definitions ({@code flipper workflow apply} and {@code validate}). Stateless.
 */
public final class ScheduleChecks {
  private ScheduleChecks() {}

  /**
   * One message per workflow whose schedule the scheduler would refuse, naming the workflow; empty
   * if none.
   */
  public static List<String> problems(List<WorkflowDefinition> definitions) {
    List<String> problems = new ArrayList<>();
    for (WorkflowDefinition definition : definitions) {
      definition
          .schedule()
          .flatMap(s -> s.cron())
          .flatMap(CronExpressions::problem)
          .ifPresent(p -> problems.add("workflow '" + definition.name() + "': schedule." + p));
    }
    return problems;
  }
}
