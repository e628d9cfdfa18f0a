package dev.flipper.workflow.tokens;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job token's data ({@code kind: "job"}): a snapshot of the job's definition taken when the
 * instance started (so a running instance is not changed by a later {@code apply}), the events that
 * made it runnable, and its execution history. The same data moves between the waiting and the
 * runnable token.
 */
public final class JobData extends TokenData {
  public String workflow;
  public String instance;
  public String name;

  /** {@code shell} or {@code condition}. */
  public String type = "shell";

  public String command = "";
  public String cleanupCommand;
  public List<String> inputs = new ArrayList<>();
  public List<String> outputs = new ArrayList<>();
  public List<String> emails = new ArrayList<>();

  /** The workflow's {@code emails} when the instance started (instance end, first failure). */
  public List<String> workflowEmails = new ArrayList<>();

  /**
   * The instance's parameters ({@code scheduledTime}, ...), copied from its record at the start.
   */
  public Map<String, String> params = new LinkedHashMap<>();

  public int maxAttempts = 1;
  public long retryDelayMillis;
  public Long warnTimeoutMillis;
  public Long abortTimeoutMillis;
  public boolean disabled;
  public double priority;

  /** Attempts used by the current run: 0 when the job becomes runnable, +1 at each start. */
  public int attempt;

  /**
   * Executions ever started (numbers the records; survives the truncation of a condition's
   * history).
   */
  public int executions;

  /**
   * The events consumed when the job last became runnable, one per input (those with attributes or
   * not).
   */
  public List<EventData> events = new ArrayList<>();

  /**
   * Only on a waiting token: the inputs that have at least one event waiting, in the order their
   * first event came. A parent's success reads this instead of the events, so a hop costs the same
   * however many siblings a join has; only the success that completes the inputs reads the events,
   * once. It is derived from the event tokens and rebuilt from them when missing: null (absent)
   * means "not recorded", as on a job parked after a run (events may have come while it ran).
   * Whoever adds or removes events other than through a parent's success (an operator, the control
   * operations) writes null or the recomputed list in the same change.
   */
  public List<String> readyInputs;

  /** Execution records, oldest first. */
  public List<ExecutionData> history = new ArrayList<>();

  public JobData() {
    super("job");
  }

  public boolean isCondition() {
    return "condition".equals(type);
  }

  public ExecutionData lastExecution() {
    return history.isEmpty() ? null : history.get(history.size() - 1);
  }

  /** True if the last execution was started and never closed: its worker died or lost the lease. */
  public boolean hasOpenExecution() {
    ExecutionData last = lastExecution();
    return last != null && last.isOpen();
  }

  public boolean attemptsLeft() {
    return attempt < maxAttempts;
  }
}
