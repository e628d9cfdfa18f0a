package dev.flipper.workflow.scheduler;

import dev.flipper.token.ModifyParams;
import java.util.Optional;

/**
 * What one due schedule does, decided but not yet written: one modify holding the schedule token's new state
 * and, for a start, the new instance's tokens (and ABORT signals). Immutable.
 *
 * @param modify the one atomic change to write
 * @param instance the instance it starts, if it starts one
 * @param afterCommit run once the modify succeeded (a notification); never throws
 * @param summary what happened, for the log
 */
record FiringPlan(ModifyParams modify, Optional<String> instance, Runnable afterCommit, String summary) {}
