package dev.flipper.workflow.scheduler;

import dev.flipper.token.Token;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one due schedule does, decided but not yet written. Immutable.
 *
 * @param writes the schedule token's new state (with the claim's version), plus ABORT signals for a
 *     start
 * @param start the instance to start with {@code writes} in one modify; empty: write {@code writes}
 *     alone
 * @param whenNotStored what to write instead if the workflow to start is not stored (the schedule
 *     waits)
 * @param afterCommit run once the change is written (a notification); never throws
 * @param summary what happened, for the log
 */
record FiringPlan(
    List<Token> writes,
    Optional<Start> start,
    List<Token> whenNotStored,
    Runnable afterCommit,
    String summary) {

  /** An instance to start. */
  record Start(String workflow, Map<String, String> params) {}

  static FiringPlan write(Token token, String summary) {
    return new FiringPlan(List.of(token), Optional.empty(), List.of(), () -> {}, summary);
  }
}
