package dev.flipper.workflow.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Java path: the builders reject what the files are rejected for, with the same messages minus
 * file:line.
 */
class WorkflowBuilderTest {
  private static JobDefinition.Builder job(String name) {
    return JobDefinition.builder(name).command("echo " + name);
  }

  private static WorkflowDefinition.Builder etl() {
    return WorkflowDefinition.builder("etl");
  }

  /** An invalid file and the same workflow written in Java. */
  static Stream<Arguments> sameProblems() {
    return Stream.of(
        same(
            "cycle.yaml",
            () ->
                etl()
                    .job(job("a").needs("c"))
                    .job(job("b").needs("a"))
                    .job(job("c").needs("b"))
                    .job(job("d").needs("c"))),
        same("self-cycle.yaml", () -> etl().job(job("a").needs("a"))),
        same(
            "two-cycles.yaml",
            () ->
                etl()
                    .job(job("start"))
                    .job(job("a").needs("start", "b"))
                    .job(job("b").needs("a"))
                    .job(job("x").needs("z"))
                    .job(job("y").needs("x"))
                    .job(job("z").needs("y"))),
        same(
            "unknown-parent.yaml",
            () -> etl().job(job("extract")).job(job("transform").needs("extarct"))),
        same(
            "unknown-parent-no-hint.yaml",
            () ->
                etl()
                    .job(job("extract"))
                    .job(job("load"))
                    .job(job("transform").needs("extract", "publish"))),
        same("invalid-job-name.yaml", () -> etl().job(job("load users")).job(job("extract.v2"))),
        same(
            "invalid-workflow-name.yaml",
            () -> WorkflowDefinition.builder("nightly etl").job(job("extract"))),
        same("reserved-name.yaml", () -> etl().job(job("__WORKFLOW_START__"))),
        same("missing-workflow.yaml", () -> WorkflowDefinition.builder(null).job(job("extract"))),
        same("missing-jobs.yaml", () -> etl().description("nothing to do")),
        same(
            "condition-with-needs.yaml",
            () ->
                etl()
                    .job(job("extract"))
                    .job(job("check_partner").condition(true).needs("extract"))),
        same(
            "every-and-cron.yaml",
            () ->
                etl()
                    .schedule(Schedule.every(Duration.ofHours(1)).cron("0 3 * * *"))
                    .job(job("extract"))),
        same(
            "neither-every-nor-cron.yaml",
            () ->
                etl().schedule(Schedule.builder().overrun(OverrunPolicy.SKIP)).job(job("extract"))),
        same(
            "timezone-with-every.yaml",
            () ->
                etl()
                    .schedule(
                        Schedule.every(Duration.ofDays(1)).timezone(ZoneId.of("Europe/Berlin")))
                    .job(job("extract"))),
        same(
            "bad-cron-fields.yaml",
            () -> etl().schedule(Schedule.cron("0 3 * *")).job(job("extract"))),
        same(
            "bad-cron-range.yaml",
            () -> etl().schedule(Schedule.cron("0 25 * * MON-FRY")).job(job("extract"))),
        same(
            "schedule-limits.yaml",
            () ->
                etl()
                    .schedule(Schedule.every(Duration.ZERO).maxRunning(0).catchUp(-1))
                    .job(job("extract"))),
        same("max-attempts-zero.yaml", () -> etl().job(job("extract").maxAttempts(0))),
        same(
            "missing-command.yaml",
            () ->
                etl()
                    .job(JobDefinition.builder("extract").maxAttempts(2))
                    .job(JobDefinition.builder("load").needs("extract").command(""))),
        same(
            "warn-after-abort.yaml",
            () ->
                etl()
                    .job(
                        job("extract")
                            .warnTimeout(Duration.ofHours(2))
                            .abortTimeout(Duration.ofMinutes(30)))),
        same(
            "bad-email.yaml",
            () -> etl().emails("data@example.com", "data-team").job(job("extract").emails(""))),
        same(
            "needs-twice.yaml",
            () -> etl().job(job("extract")).job(job("load").needs("extract", "extract"))));
  }

  private static Arguments same(String file, Supplier<WorkflowDefinition.Builder> builder) {
    return Arguments.of(file, builder);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sameProblems")
  void builderRejectsWhatTheFileIsRejectedFor(
      String file, Supplier<WorkflowDefinition.Builder> builder) {
    Path path = WorkflowFiles.dir("invalid").resolve(file);
    List<String> fromFile =
        WorkflowFiles.text(path)
            .lines()
            .filter(l -> l.startsWith("# expect: "))
            .map(
                l ->
                    l.substring("# expect: ".length())
                        .replaceFirst("^" + file.replace(".", "\\.") + ":\\d+: ", ""))
            .toList();

    assertThatThrownBy(() -> builder.get().build())
        .isInstanceOfSatisfying(
            InvalidWorkflowException.class,
            e -> assertThat(e.problems()).containsExactlyInAnyOrderElementsOf(fromFile));
  }

  @Test
  void aJavaDuplicateJobIsRejected() {
    assertThatThrownBy(() -> etl().job(job("extract")).job(job("extract")).build())
        .hasMessage("duplicate job 'extract'");
  }

  @Test
  void negativeDurationsAndNullsAreRejected() {
    assertThatThrownBy(
            () ->
                etl()
                    .job(
                        job("a")
                            .retryDelay(Duration.ofSeconds(-1))
                            .warnTimeout(Duration.ZERO)
                            .needs((String) null))
                    .build())
        .isInstanceOfSatisfying(
            InvalidWorkflowException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly(
                        "'jobs.a.needs[0]' must be a job name, got nothing",
                        "'jobs.a.retryDelay' must not be negative, got -1s",
                        "'jobs.a.warnTimeout' must be more than 0s, got 0s"));
  }

  @Test
  void durationsFinerThanAMillisecondAreRejected() {
    assertThatThrownBy(
            () ->
                etl()
                    .schedule(Schedule.every(Duration.ofNanos(1_500_000)))
                    .job(job("a").retryDelay(Duration.ofNanos(1)))
                    .build())
        .isInstanceOfSatisfying(
            InvalidWorkflowException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly(
                        "'schedule.every' must be a whole number of milliseconds, got 1500000ns",
                        "'jobs.a.retryDelay' must be a whole number of milliseconds, got 1ns"));
  }

  @Test
  void aJobOrScheduleBuiltAloneIsCheckedOnItsOwn() {
    assertThatThrownBy(() -> JobDefinition.builder("a b").maxAttempts(0).build())
        .isInstanceOfSatisfying(
            InvalidWorkflowException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly(
                        "invalid job name 'a b': use 1 to 100 letters, digits, _ or -",
                        "'jobs.a b.command' is required (the shell command to run)",
                        "'jobs.a b.maxAttempts' must be at least 1, got 0"));
    assertThatThrownBy(() -> Schedule.cron("* * *").build())
        .hasMessageStartingWith("'schedule.cron' must have 5 fields");
    assertThat(JobDefinition.builder("a").command("true").needs("elsewhere").build().needs())
        .containsExactly("elsewhere"); // parents are checked with the workflow
  }

  @Test
  void theRecordConstructorRunsTheSameChecks() {
    JobDefinition a =
        new JobDefinition(
            "a",
            "true",
            false,
            List.of("b"),
            1,
            Duration.ZERO,
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            List.of(),
            OptionalInt.empty(),
            false);
    JobDefinition b =
        new JobDefinition(
            "b",
            "true",
            false,
            List.of("a"),
            1,
            Duration.ZERO,
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            List.of(),
            OptionalInt.empty(),
            false);

    assertThatThrownBy(
            () ->
                new WorkflowDefinition(
                    "etl", "", List.of(), List.of(), Optional.empty(), List.of(a, b)))
        .isInstanceOf(InvalidWorkflowException.class)
        .hasMessage("cycle: a -> b -> a");
  }

  @Test
  void defaultsAreApplied() {
    WorkflowDefinition w = etl().job(job("a")).job(job("s").condition(true)).build();

    assertThat(w.job("a").orElseThrow().maxAttempts())
        .isEqualTo(JobDefinition.DEFAULT_MAX_ATTEMPTS);
    assertThat(w.job("a").orElseThrow().retryDelay()).isEqualTo(JobDefinition.DEFAULT_RETRY_DELAY);
    assertThat(w.job("s").orElseThrow().maxAttempts())
        .isEqualTo(JobDefinition.DEFAULT_CONDITION_MAX_ATTEMPTS);
    assertThat(w.job("s").orElseThrow().retryDelay())
        .isEqualTo(JobDefinition.DEFAULT_CONDITION_RETRY_DELAY);
    assertThat(w.toBuilder().build()).isEqualTo(w);
  }
}
