package dev.flipper.workflow.worker.exec;

import dev.flipper.text.DurationText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one attempt of a job needs to run: who it is, the command (already rendered by {@link
 * CommandTemplate}), the optional cleanup template, time-outs, working directory and extra
 * environment. Immutable; build with {@link #builder}.
 *
 * @param workflow workflow name ({@code FLIPPER_WORKFLOW})
 * @param instance instance id ({@code FLIPPER_INSTANCE})
 * @param job job name ({@code FLIPPER_JOB})
 * @param execution index of this execution in the job's history, from 0 (Pinball's {@code
 *     PINBALL_EXECUTION}; {@code FLIPPER_EXECUTION} is this plus 1, as status, the UI and logs -e
 *     number executions)
 * @param attempt attempt number within the current run of the job, from 1 ({@code
 *     FLIPPER_ATTEMPT}); also names the log files
 * @param command the shell command to run with {@code /bin/sh -c}
 * @param cleanup cleanup command template run after a non-zero exit ({@code %(kill_id)s}), or null
 * @param workingDirectory where the command runs; must exist
 * @param extraEnvironment added to the worker's environment (e.g. {@code FLIPPER_SCHEDULED_TIME},
 *     {@code FLIPPER_BASE_URL}); the {@code FLIPPER_*}/{@code PINBALL_*} identity variables above
 *     win over it
 * @param warnTimeout after this the listener is warned once; null = never
 * @param abortTimeout after this the process group is killed; null = never
 * @param disabled true = succeed at once without running anything
 */
public record ExecutionParams(
    String workflow,
    String instance,
    String job,
    int execution,
    int attempt,
    String command,
    CommandTemplate cleanup,
    Path workingDirectory,
    Map<String, String> extraEnvironment,
    Duration warnTimeout,
    Duration abortTimeout,
    boolean disabled) {

  public ExecutionParams {
    requireText(workflow, "workflow");
    requireText(instance, "instance");
    requireText(job, "job");
    if (execution < 0) {
      throw new IllegalArgumentException("execution must be >= 0, was " + execution);
    }
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be >= 1, was " + attempt);
    }
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    extraEnvironment = Map.copyOf(extraEnvironment);
    requirePositive(warnTimeout, "warnTimeout");
    requirePositive(abortTimeout, "abortTimeout");
  }

  public static Builder builder(String workflow, String instance, String job) {
    return new Builder(workflow, instance, job);
  }

  /** The identity variables a command sees, under both the Flipper and the original's names. */
  Map<String, String> identityEnvironment() {
    Map<String, String> env = new LinkedHashMap<>();
    for (String prefix : List.of("FLIPPER_", "PINBALL_")) {
      env.put(prefix + "WORKFLOW", workflow);
      env.put(prefix + "INSTANCE", instance);
      env.put(prefix + "JOB", job);
    }
    // Flipper counts executions from 1, as `workflow status`, the UI and `logs -e` show them;
    // Pinball's variable keeps its index from 0 for jobs written for Pinball.
    env.put("FLIPPER_EXECUTION", Integer.toString(execution + 1));
    env.put("PINBALL_EXECUTION", Integer.toString(execution));
    env.put("FLIPPER_ATTEMPT", Integer.toString(attempt));
    return env;
  }

  private static void requireText(String value, String name) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
  }

  private static void requirePositive(Duration d, String name) {
    if (d != null && (d.isNegative() || d.isZero())) {
      throw new IllegalArgumentException(
          name + " must be positive (or null for none), was " + DurationText.format(d));
    }
  }

  /** Builder for {@link ExecutionParams}; not thread-safe. */
  public static final class Builder {
    private final String workflow;
    private final String instance;
    private final String job;
    private int execution;
    private int attempt = 1;
    private String command;
    private CommandTemplate cleanup;
    private Path workingDirectory = Path.of(".");
    private final Map<String, String> extraEnvironment = new LinkedHashMap<>();
    private Duration warnTimeout;
    private Duration abortTimeout;
    private boolean disabled;

    private Builder(String workflow, String instance, String job) {
      this.workflow = workflow;
      this.instance = instance;
      this.job = job;
    }

    public Builder execution(int execution) {
      this.execution = execution;
      return this;
    }

    public Builder attempt(int attempt) {
      this.attempt = attempt;
      return this;
    }

    public Builder command(String command) {
      this.command = command;
      return this;
    }

    public Builder cleanup(String cleanupTemplate) {
      this.cleanup = cleanupTemplate == null ? null : CommandTemplate.of(cleanupTemplate);
      return this;
    }

    public Builder workingDirectory(Path workingDirectory) {
      this.workingDirectory = workingDirectory;
      return this;
    }

    public Builder environment(String name, String value) {
      this.extraEnvironment.put(name, value);
      return this;
    }

    public Builder environment(Map<String, String> variables) {
      this.extraEnvironment.putAll(variables);
      return this;
    }

    public Builder warnTimeout(Duration warnTimeout) {
      this.warnTimeout = warnTimeout;
      return this;
    }

    public Builder abortTimeout(Duration abortTimeout) {
      this.abortTimeout = abortTimeout;
      return this;
    }

    public Builder disabled(boolean disabled) {
      this.disabled = disabled;
      return this;
    }

    public ExecutionParams build() {
      return new ExecutionParams(
          workflow,
          instance,
          job,
          execution,
          attempt,
          command,
          cleanup,
          workingDirectory,
          extraEnvironment,
          warnTimeout,
          abortTimeout,
          disabled);
    }
  }
}
