package dev.flipper.workflow.engine;

import dev.flipper.token.Token;
import dev.flipper.workflow.tokens.EventData;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A job a worker holds: what to run and the lease on it. Returned by {@link WorkflowEngine#claim}
 * and passed back to {@link WorkflowEngine#start}, {@link WorkflowEngine#renew} and {@link
 * WorkflowEngine#finish}, which update it in place. Thread-safe: a renewal thread and the thread
 * running the job may share it; the engine serializes calls on one claimed job.
 */
public final class ClaimedJob {
  private final String worker;
  private final Duration lease;
  private Token token;
  private JobData data;
  private boolean done;

  ClaimedJob(String worker, Duration lease, Token token, JobData data) {
    this.worker = worker;
    this.lease = lease;
    this.token = token;
    this.data = data;
  }

  public String worker() {
    return worker;
  }

  /** The lease length asked for at the claim; each renewal extends the lease to now + this. */
  public Duration lease() {
    return lease;
  }

  public synchronized String workflow() {
    return data.workflow;
  }

  public synchronized String instance() {
    return data.instance;
  }

  public synchronized String job() {
    return data.name;
  }

  /**
   * The command template: {@code %(name)s} takes event attributes, {@code %%} is a literal {@code
   * %}.
   */
  public synchronized String command() {
    return data.command;
  }

  public synchronized Optional<String> cleanupCommand() {
    return Optional.ofNullable(data.cleanupCommand);
  }

  public synchronized Optional<Duration> warnTimeout() {
    return Optional.ofNullable(data.warnTimeoutMillis).map(Duration::ofMillis);
  }

  public synchronized Optional<Duration> abortTimeout() {
    return Optional.ofNullable(data.abortTimeoutMillis).map(Duration::ofMillis);
  }

  public synchronized List<String> emails() {
    return List.copyOf(data.emails);
  }

  /** The workflow's {@code emails} as when the instance started. */
  public synchronized List<String> workflowEmails() {
    return List.copyOf(data.workflowEmails);
  }

  /**
   * The instance's parameters, e.g. {@code scheduledTime} for an instance the scheduler started.
   */
  public synchronized Map<String, String> params() {
    return Map.copyOf(data.params);
  }

  public synchronized boolean condition() {
    return data.isCondition();
  }

  /**
   * The attempt this execution is (1-based): before {@link WorkflowEngine#start} the one it will
   * be, after it the one that runs.
   */
  public synchronized int attempt() {
    return started() ? data.attempt : data.attempt + 1;
  }

  public synchronized int maxAttempts() {
    return data.maxAttempts;
  }

  /**
   * The 1-based number of this execution in the job's history ({@code FLIPPER_EXECUTION}; Pinball's
   * {@code PINBALL_EXECUTION} is this minus 1, the record's index, while no condition truncation
   * has happened).
   */
  public synchronized int execution() {
    return started() ? data.executions : data.executions + 1;
  }

  /** The index the record of this execution has (or will have) in the job's history. */
  public synchronized int historyIndex() {
    return started() ? data.history.size() - 1 : data.history.size();
  }

  /** The events that made the job runnable, one per input, in input order. */
  public synchronized List<Event> events() {
    List<Event> events = new ArrayList<>();
    for (EventData event : data.events) {
      events.add(new Event(event.input, event.creator, event.attributes));
    }
    return events;
  }

  /**
   * The values for {@code %(name)s}: every event attribute; when several events carry a name, their
   * distinct values comma-joined in input order.
   */
  public synchronized Map<String, String> eventAttributes() {
    Map<String, String> joined = new LinkedHashMap<>();
    eventAttributeValues().forEach((k, v) -> joined.put(k, String.join(",", v)));
    return joined;
  }

  /**
   * The same as lists: per attribute name, its distinct values in input order (what the worker's
   * {@code CommandTemplate.render} takes; it joins them with commas).
   */
  public synchronized Map<String, List<String>> eventAttributeValues() {
    Map<String, Set<String>> values = new LinkedHashMap<>();
    for (EventData event : data.events) {
      event.attributes.forEach(
          (k, v) -> values.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(v));
    }
    Map<String, List<String>> lists = new LinkedHashMap<>();
    values.forEach((k, v) -> lists.put(k, List.copyOf(v)));
    return lists;
  }

  /** When the lease ends, unless renewed. */
  public synchronized Instant leaseEnd() {
    return Instant.ofEpochSecond(token.expirationTime());
  }

  /** True once {@link WorkflowEngine#start} recorded the execution. */
  public synchronized boolean started() {
    ExecutionData last = data.lastExecution();
    return last != null && last.isOpen();
  }

  /** The execution {@link WorkflowEngine#start} recorded, while it runs; empty before the start. */
  public synchronized Optional<ExecutionDetail> startedExecution() {
    return started() ? Optional.of(data.lastExecution().toDetail()) : Optional.empty();
  }

  /** The job token's name, for messages. */
  public synchronized String tokenName() {
    return token.name();
  }

  synchronized Token token() {
    return token;
  }

  /** A copy of the data, for the engine to change and write. */
  synchronized JobData dataCopy() {
    return Json.copy(data, JobData.class);
  }

  synchronized void update(Token newToken, JobData newData) {
    token = newToken;
    data = newData;
  }

  synchronized boolean isDone() {
    return done;
  }

  synchronized void markDone() {
    done = true;
  }

  @Override
  public synchronized String toString() {
    return "ClaimedJob["
        + token.name()
        + ", worker="
        + worker
        + ", attempt="
        + attempt()
        + "/"
        + data.maxAttempts
        + ", leaseEnd="
        + leaseEnd()
        + "]";
  }
}
