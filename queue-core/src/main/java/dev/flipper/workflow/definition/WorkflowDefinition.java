package dev.flipper.workflow.definition;

import dev.flipper.yaml.Problems;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A workflow: named jobs that depend on each other (a directed acyclic graph), plus who owns it,
 * who hears about it and when it runs. Every instance of this record is valid: its constructor runs
 * the same checks as the YAML parser ({@link WorkflowParser}) and the builder, so a cycle or an
 * unknown parent cannot exist. Immutable and thread-safe.
 *
 * <pre>{@code
 * WorkflowDefinition etl = WorkflowDefinition.builder("etl")
 *     .schedule(Schedule.every(Duration.ofHours(1)))
 *     .job(JobDefinition.builder("extract").command("./extract.sh").maxAttempts(3))
 *     .job(JobDefinition.builder("load").needs("extract").command("./load.sh"))
 *     .build();
 * }</pre>
 *
 * @param name 1 to 100 letters, digits, {@code _} or {@code -}, not starting with {@code __}
 * @param description free text; "" when not given
 * @param owners who owns the workflow (names shown in the UI)
 * @param emails who is mailed when an instance ends, at its first failure and about too many
 *     instances
 * @param schedule when the scheduler starts instances; empty = only by hand
 * @param jobs at least one job, in the order written
 */
public record WorkflowDefinition(
    String name,
    String description,
    List<String> owners,
    List<String> emails,
    Optional<Schedule> schedule,
    List<JobDefinition> jobs) {

  /**
   * @throws InvalidWorkflowException listing every problem, without locations
   */
  public WorkflowDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    owners = List.copyOf(owners);
    emails = List.copyOf(emails);
    Objects.requireNonNull(schedule, "schedule");
    jobs = List.copyOf(jobs);
    Builder check = new Builder(name).description(description).owners(owners).emails(emails);
    schedule.ifPresent(s -> check.schedule(s.toBuilder()));
    jobs.forEach(j -> check.job(j.toBuilder()));
    Problems problems = new Problems();
    WorkflowValidator.check(check, problems);
    problems.throwIfAny(InvalidWorkflowException::new);
  }

  /** A builder for the workflow {@code name}; it needs at least one job. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** A builder holding this workflow's values, to derive a changed copy. */
  public Builder toBuilder() {
    Builder b = new Builder(name).description(description).owners(owners).emails(emails);
    schedule.ifPresent(s -> b.schedule(s.toBuilder()));
    jobs.forEach(j -> b.job(j.toBuilder()));
    return b;
  }

  /** The job called {@code name}. */
  public Optional<JobDefinition> job(String name) {
    return jobs.stream().filter(j -> j.name().equals(name)).findFirst();
  }

  /** The job graph: parents, children, order, roots, final jobs and default priorities. */
  public WorkflowGraph graph() {
    return WorkflowGraph.of(this);
  }

  /**
   * The canonical YAML text of this definition: keys in a fixed order, defaults written out (except
   * an unset priority, whose default depends on the graph), so equal definitions give equal text
   * and {@link WorkflowParser#parse} reads it back to an equal definition.
   */
  public String toYaml() {
    return CanonicalYaml.write(this);
  }

  /** Collects a workflow's settings and jobs. Not thread-safe. */
  public static final class Builder {
    final Located located = new Located();
    String name;
    String description = "";
    final List<String> owners = new ArrayList<>();
    final List<String> emails = new ArrayList<>();
    Schedule.Builder schedule;
    final List<JobDefinition.Builder> jobs = new ArrayList<>();

    Builder(String name) {
      this.name = name;
    }

    public Builder description(String description) {
      this.description = description;
      return this;
    }

    /** Adds owners. */
    public Builder owners(String... owners) {
      return owners(Arrays.asList(owners));
    }

    /** Adds owners. */
    public Builder owners(List<String> owners) {
      this.owners.addAll(owners);
      return this;
    }

    /** Adds recipients of instance-end, first-failure and too-many-instances mail. */
    public Builder emails(String... emails) {
      return emails(Arrays.asList(emails));
    }

    /** Adds recipients of instance-end, first-failure and too-many-instances mail. */
    public Builder emails(List<String> emails) {
      this.emails.addAll(emails);
      return this;
    }

    public Builder schedule(Schedule.Builder schedule) {
      this.schedule = schedule;
      return this;
    }

    public Builder schedule(Schedule schedule) {
      return schedule(schedule.toBuilder());
    }

    /** Adds a job; the builder is kept and read by {@link #build()}. */
    public Builder job(JobDefinition.Builder job) {
      jobs.add(job);
      return this;
    }

    public Builder job(JobDefinition job) {
      return job(job.toBuilder());
    }

    /**
     * The workflow, after every check.
     *
     * @throws InvalidWorkflowException listing every problem, without locations
     */
    public WorkflowDefinition build() {
      Problems problems = new Problems();
      WorkflowValidator.check(this, problems);
      problems.throwIfAny(InvalidWorkflowException::new);
      return construct();
    }

    /** The workflow with defaults applied; only after the validator found nothing. */
    WorkflowDefinition construct() {
      return new WorkflowDefinition(
          name,
          description != null ? description : "",
          owners,
          emails,
          Optional.ofNullable(schedule).map(Schedule.Builder::construct),
          jobs.stream().map(JobDefinition.Builder::construct).toList());
    }
  }
}
