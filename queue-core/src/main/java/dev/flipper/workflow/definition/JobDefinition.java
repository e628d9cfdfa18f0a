package dev.flipper.workflow.definition;

import dev.flipper.yaml.Problems;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One job of a workflow: a shell command that runs once every job it {@code needs} has succeeded.
 * Immutable and thread-safe. Defaults are already applied: {@code maxAttempts} and {@code
 * retryDelay} hold what the job will use (1 and 0s, or 10 and 5m for a condition). Only {@link
 * #priority()} stays empty when not given, because its default depends on the graph: see {@link
 * WorkflowGraph#priority(String)}.
 *
 * <p>Build one with {@link #builder(String)}; a job is checked when its workflow is built (or by
 * {@link Builder#build()} on its own, for the rules that do not need the other jobs).
 *
 * @param name 1 to 100 letters, digits, {@code _} or {@code -}; unique in the workflow
 * @param command the shell command ({@code /bin/sh -c}); {@code %(name)s} takes upstream event
 *     attributes, quoted for the shell as one word ({@code %(name:raw)s}: unquoted)
 * @param condition true for a sensor: no {@code needs}, retried until it succeeds
 * @param needs the parents, in the order written; empty = starts with the instance
 * @param maxAttempts attempts per instance, at least 1
 * @param retryDelay wait after a failed attempt before the next
 * @param warnTimeout one warning once an attempt runs this long
 * @param abortTimeout an attempt running this long is killed with its process group
 * @param cleanup shell command run after a failed attempt; {@code %(kill_id)s} takes the attempt's
 *     kill_id
 * @param emails who is mailed about this job's failures and time-outs
 * @param priority claim priority when given; else the graph's default
 * @param disabled true = succeeds at once without running, still after its inputs
 */
public record JobDefinition(
    String name,
    String command,
    boolean condition,
    List<String> needs,
    int maxAttempts,
    Duration retryDelay,
    Optional<Duration> warnTimeout,
    Optional<Duration> abortTimeout,
    Optional<String> cleanup,
    List<String> emails,
    OptionalInt priority,
    boolean disabled) {

  /** Attempts of a job: 1, so a failure is final unless {@code maxAttempts} says otherwise. */
  public static final int DEFAULT_MAX_ATTEMPTS = 1;

  /** Attempts of a condition (sensor). */
  public static final int DEFAULT_CONDITION_MAX_ATTEMPTS = 10;

  /** Wait between attempts of a job. */
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ZERO;

  /** Wait between attempts of a condition (sensor). */
  public static final Duration DEFAULT_CONDITION_RETRY_DELAY = Duration.ofMinutes(5);

  public JobDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(command, "command");
    needs = List.copyOf(needs);
    Objects.requireNonNull(retryDelay, "retryDelay");
    Objects.requireNonNull(warnTimeout, "warnTimeout");
    Objects.requireNonNull(abortTimeout, "abortTimeout");
    Objects.requireNonNull(cleanup, "cleanup");
    emails = List.copyOf(emails);
    Objects.requireNonNull(priority, "priority");
  }

  /**
   * A builder for the job {@code name}; {@link Builder#command(String)} is the only required
   * setting.
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** A builder holding this job's values, to derive a changed copy. */
  public Builder toBuilder() {
    Builder b =
        new Builder(name)
            .command(command)
            .condition(condition)
            .needs(needs)
            .maxAttempts(maxAttempts)
            .retryDelay(retryDelay)
            .emails(emails)
            .disabled(disabled);
    warnTimeout.ifPresent(b::warnTimeout);
    abortTimeout.ifPresent(b::abortTimeout);
    cleanup.ifPresent(b::cleanup);
    priority.ifPresent(b::priority);
    return b;
  }

  /**
   * Collects a job's settings; unset ones take the defaults when built. Not thread-safe. A workflow
   * builder that was given this builder keeps it, and reads it when the workflow is built.
   */
  public static final class Builder {
    final Located located = new Located();
    String name;
    String command;
    boolean condition;
    List<String> needs = new ArrayList<>();
    Integer maxAttempts;
    Duration retryDelay;
    Duration warnTimeout;
    Duration abortTimeout;
    String cleanup;
    List<String> emails = new ArrayList<>();
    Integer priority;
    boolean disabled;

    Builder(String name) {
      this.name = name;
    }

    /** The shell command, run with {@code /bin/sh -c}. Required. */
    public Builder command(String command) {
      this.command = command;
      return this;
    }

    /**
     * true makes the job a sensor: no parents, retried until it succeeds (10 attempts, 5m apart).
     */
    public Builder condition(boolean condition) {
      this.condition = condition;
      return this;
    }

    /** Adds parents: the job runs once each of them has succeeded. */
    public Builder needs(String... parents) {
      return needs(Arrays.asList(parents));
    }

    /** Adds parents: the job runs once each of them has succeeded. */
    public Builder needs(List<String> parents) {
      needs.addAll(parents);
      return this;
    }

    /** Attempts per instance, at least 1. Default 1 (a condition: 10). */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /** Wait after a failed attempt. Default 0s (a condition: 5m). */
    public Builder retryDelay(Duration retryDelay) {
      this.retryDelay = retryDelay;
      return this;
    }

    /** One warning once an attempt runs this long. Default: never. */
    public Builder warnTimeout(Duration warnTimeout) {
      this.warnTimeout = warnTimeout;
      return this;
    }

    /** Kill an attempt (its whole process group) that runs this long. Default: never. */
    public Builder abortTimeout(Duration abortTimeout) {
      this.abortTimeout = abortTimeout;
      return this;
    }

    /**
     * Shell command run after a failed attempt; {@code %(kill_id)s} takes the attempt's kill_id.
     */
    public Builder cleanup(String cleanup) {
      this.cleanup = cleanup;
      return this;
    }

    /** Adds recipients of this job's failure and time-out mail. */
    public Builder emails(String... emails) {
      return emails(Arrays.asList(emails));
    }

    /** Adds recipients of this job's failure and time-out mail. */
    public Builder emails(List<String> emails) {
      this.emails.addAll(emails);
      return this;
    }

    /** Claim priority (higher first). Default: 1 + the number of jobs downstream. */
    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    /** true = the job succeeds at once without running its command, still after its inputs. */
    public Builder disabled(boolean disabled) {
      this.disabled = disabled;
      return this;
    }

    /**
     * The job, checked on its own (the rules that need the other jobs, such as unknown parents, are
     * checked when the workflow is built).
     *
     * @throws InvalidWorkflowException listing every problem
     */
    public JobDefinition build() {
      Problems problems = new Problems();
      WorkflowValidator.checkJob(this, problems);
      problems.throwIfAny(InvalidWorkflowException::new);
      return construct();
    }

    /** The job with defaults applied; only after the validator found nothing. */
    JobDefinition construct() {
      return new JobDefinition(
          name,
          command,
          condition,
          needs,
          maxAttempts != null
              ? maxAttempts
              : condition ? DEFAULT_CONDITION_MAX_ATTEMPTS : DEFAULT_MAX_ATTEMPTS,
          retryDelay != null
              ? retryDelay
              : condition ? DEFAULT_CONDITION_RETRY_DELAY : DEFAULT_RETRY_DELAY,
          Optional.ofNullable(warnTimeout),
          Optional.ofNullable(abortTimeout),
          Optional.ofNullable(cleanup),
          emails,
          priority != null ? OptionalInt.of(priority) : OptionalInt.empty(),
          disabled);
    }
  }
}
