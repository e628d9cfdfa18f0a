package dev.flipper.workflow.definition;

import dev.flipper.yaml.Problems;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * When the scheduler starts instances of a workflow: {@code every} a fixed duration from {@code
 * start}, or at the times of a {@code cron} expression in {@code timezone} (exactly one of the
 * two). Immutable and thread-safe; defaults are applied.
 *
 * @param every the interval, more than 0s; empty for a cron schedule
 * @param cron a 5-field Unix cron expression (minute hour day-of-month month day-of-week), or 6
 *     fields with seconds first, or {@code @daily} and its kin; empty for an {@code every} schedule
 * @param timezone the zone cron times are read in; UTC unless given (only cron schedules may set
 *     it)
 * @param start the reference time that {@code every} counts from; empty = when the schedule is
 *     stored
 * @param overrun what to do when a run is due while instances run; default SKIP
 * @param maxRunning at most this many instances run at once, at least 1; default 3
 * @param catchUp missed runs started when the scheduler comes back, oldest first, at least 0;
 *     default 0
 */
public record Schedule(
    Optional<Duration> every,
    Optional<String> cron,
    ZoneId timezone,
    Optional<Instant> start,
    OverrunPolicy overrun,
    int maxRunning,
    int catchUp) {

  /** Instances of one workflow that may run at once, unless {@code maxRunning} says otherwise. */
  public static final int DEFAULT_MAX_RUNNING = 3;

  /** The zone of a cron schedule that names none. */
  public static final ZoneId DEFAULT_TIMEZONE = ZoneId.of("UTC");

  public Schedule {
    Objects.requireNonNull(every, "every");
    Objects.requireNonNull(cron, "cron");
    Objects.requireNonNull(timezone, "timezone");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(overrun, "overrun");
  }

  /** A builder for a schedule that repeats {@code interval}. */
  public static Builder every(Duration interval) {
    return new Builder().every(interval);
  }

  /** A builder for a schedule at the times of {@code expression}, e.g. {@code "0 3 * * *"}. */
  public static Builder cron(String expression) {
    return new Builder().cron(expression);
  }

  /** An empty builder: set {@link Builder#every} or {@link Builder#cron}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this schedule's values. */
  public Builder toBuilder() {
    Builder b = new Builder().overrun(overrun).maxRunning(maxRunning).catchUp(catchUp);
    every.ifPresent(b::every);
    cron.ifPresent(b::cron);
    if (cron.isPresent()) {
      b.timezone(timezone);
    }
    start.ifPresent(b::start);
    return b;
  }

  /** Collects a schedule's settings. Not thread-safe. */
  public static final class Builder {
    final Located located = new Located();
    Duration every;
    String cron;
    ZoneId timezone;
    Instant start;
    OverrunPolicy overrun;
    Integer maxRunning;
    Integer catchUp;

    Builder() {}

    public Builder every(Duration every) {
      this.every = every;
      return this;
    }

    public Builder cron(String cron) {
      this.cron = cron;
      return this;
    }

    /** The zone cron times are read in (cron schedules only). Default UTC. */
    public Builder timezone(ZoneId timezone) {
      this.timezone = timezone;
      return this;
    }

    public Builder start(Instant start) {
      this.start = start;
      return this;
    }

    public Builder overrun(OverrunPolicy overrun) {
      this.overrun = overrun;
      return this;
    }

    public Builder maxRunning(int maxRunning) {
      this.maxRunning = maxRunning;
      return this;
    }

    public Builder catchUp(int catchUp) {
      this.catchUp = catchUp;
      return this;
    }

    /**
     * The schedule.
     *
     * @throws InvalidWorkflowException listing every problem
     */
    public Schedule build() {
      Problems problems = new Problems();
      WorkflowValidator.checkSchedule(this, problems);
      problems.throwIfAny(InvalidWorkflowException::new);
      return construct();
    }

    Schedule construct() {
      return new Schedule(
          Optional.ofNullable(every),
          Optional.ofNullable(cron),
          timezone != null ? timezone : DEFAULT_TIMEZONE,
          Optional.ofNullable(start),
          overrun != null ? overrun : OverrunPolicy.SKIP,
          maxRunning != null ? maxRunning : DEFAULT_MAX_RUNNING,
          catchUp != null ? catchUp : 0);
    }
  }
}
