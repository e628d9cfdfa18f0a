package dev.flipper.workflow.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.yaml.Problems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class WorkflowParserTest {
  private static final String EXPECT = "# expect: ";

  static Stream<Path> invalidFiles() {
    return WorkflowFiles.in("invalid").stream();
  }

  @Test
  void thereAreAtLeastThirtyInvalidFiles() {
    assertThat(invalidFiles()).hasSizeGreaterThanOrEqualTo(30);
  }

  /**
   * Each file ends with its exact problem lines, one "# expect: file:line: message" comment each.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidFiles")
  void invalidFileIsRejectedWithEveryProblemNamingFileAndLine(Path file) {
    String text = WorkflowFiles.text(file);
    List<String> expected =
        text.lines()
            .filter(l -> l.startsWith(EXPECT))
            .map(l -> l.substring(EXPECT.length()))
            .toList();
    assertThat(expected).as("expectations in " + file.getFileName()).isNotEmpty();

    String name = file.getFileName().toString();
    assertThatThrownBy(() -> WorkflowParser.parse(name, text))
        .isInstanceOfSatisfying(
            InvalidWorkflowException.class, e -> assertThat(e.problems()).isEqualTo(expected));
    Problems problems = new Problems();
    assertThat(WorkflowParser.parse(name, text, problems)).isEmpty();
    assertThat(problems.lines()).isEqualTo(expected);
    assertThat(expected)
        .allSatisfy(line -> assertThat(line).matches(name.replace(".", "\\.") + ":\\d+: .+"));
  }

  @Test
  void theIssueExampleParsesWithItsDefaults() {
    WorkflowDefinition etl = WorkflowFiles.valid("issue-example.yaml");

    assertThat(etl.name()).isEqualTo("etl");
    assertThat(etl.description()).isEqualTo("Nightly load");
    assertThat(etl.owners()).containsExactly("data-team");
    assertThat(etl.emails()).containsExactly("data@example.com");
    assertThat(etl.schedule())
        .hasValue(
            new Schedule(
                Optional.of(Duration.ofHours(1)),
                Optional.empty(),
                ZoneId.of("UTC"),
                Optional.of(Instant.parse("2026-01-01T00:00:00Z")),
                OverrunPolicy.SKIP,
                3,
                0));
    assertThat(etl.jobs())
        .containsExactly(
            new JobDefinition(
                "extract",
                "./extract.sh --day \"$FLIPPER_INSTANCE\"",
                false,
                List.of(),
                3,
                Duration.ofSeconds(30),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                OptionalInt.empty(),
                false),
            new JobDefinition(
                "check_partner",
                "test -f /data/partner.done",
                true,
                List.of(),
                10,
                Duration.ofMinutes(5),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                OptionalInt.empty(),
                false),
            new JobDefinition(
                "transform",
                "./transform.sh %(path)s",
                false,
                List.of("extract", "check_partner"),
                1,
                Duration.ZERO,
                Optional.of(Duration.ofMinutes(30)),
                Optional.of(Duration.ofHours(2)),
                Optional.of("./kill.sh %(kill_id)s"),
                List.of("oncall@example.com"),
                OptionalInt.of(10),
                false));
  }

  @Test
  void theIssueExampleEqualsTheSameWorkflowBuiltInJava() {
    WorkflowDefinition built =
        WorkflowDefinition.builder("etl")
            .description("Nightly load")
            .owners("data-team")
            .emails("data@example.com")
            .schedule(
                Schedule.every(Duration.ofHours(1))
                    .start(Instant.parse("2026-01-01T00:00:00Z"))
                    .overrun(OverrunPolicy.SKIP)
                    .maxRunning(3))
            .job(
                JobDefinition.builder("extract")
                    .command("./extract.sh --day \"$FLIPPER_INSTANCE\"")
                    .maxAttempts(3)
                    .retryDelay(Duration.ofSeconds(30)))
            .job(
                JobDefinition.builder("check_partner")
                    .condition(true)
                    .command("test -f /data/partner.done"))
            .job(
                JobDefinition.builder("transform")
                    .needs("extract", "check_partner")
                    .command("./transform.sh %(path)s")
                    .warnTimeout(Duration.ofMinutes(30))
                    .abortTimeout(Duration.ofHours(2))
                    .cleanup("./kill.sh %(kill_id)s")
                    .emails("oncall@example.com")
                    .priority(10)
                    .disabled(false))
            .build();

    assertThat(built).isEqualTo(WorkflowFiles.valid("issue-example.yaml"));
  }

  @Test
  void aDiamondParses() {
    WorkflowDefinition diamond = WorkflowFiles.valid("diamond.yaml");

    assertThat(diamond.name()).isEqualTo("diamond");
    assertThat(diamond.schedule()).isEmpty();
    assertThat(diamond.description()).isEmpty();
    assertThat(diamond.jobs())
        .extracting(JobDefinition::name)
        .containsExactly("top", "left", "right", "bottom");
    assertThat(diamond.job("bottom").orElseThrow().needs()).containsExactly("left", "right");
    assertThat(diamond.jobs())
        .allSatisfy(
            j -> {
              assertThat(j.maxAttempts()).isEqualTo(1);
              assertThat(j.retryDelay()).isZero();
              assertThat(j.condition()).isFalse();
              assertThat(j.priority()).isEmpty();
            });
  }

  @Test
  void aSensorScheduleAndItsConditionDefaults() {
    WorkflowDefinition sensor = WorkflowFiles.valid("sensor.yaml");

    Schedule schedule = sensor.schedule().orElseThrow();
    assertThat(schedule.cron()).hasValue("30 6 * * MON-FRI");
    assertThat(schedule.every()).isEmpty();
    assertThat(schedule.timezone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(schedule.overrun())
        .isEqualTo(OverrunPolicy.DELAY_UNTIL_SUCCESS); // names are case-insensitive
    assertThat(schedule.maxRunning()).isEqualTo(Schedule.DEFAULT_MAX_RUNNING);
    assertThat(schedule.catchUp()).isEqualTo(2);
    JobDefinition wait = sensor.job("wait_for_file").orElseThrow();
    assertThat(wait.condition()).isTrue();
    assertThat(wait.maxAttempts()).isEqualTo(10);
    assertThat(wait.retryDelay()).isEqualTo(Duration.ofMinutes(5));
    JobDefinition fast = sensor.job("fast_sensor").orElseThrow();
    assertThat(fast.maxAttempts()).isEqualTo(3);
    assertThat(fast.retryDelay()).isEqualTo(Duration.ofSeconds(10));
    assertThat(fast.command()).isEqualTo("true");
  }

  @Test
  void readNamesTheFileAsGiven(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("etl.yaml");
    Files.writeString(file, "workflow: etl\njobs:\n  a:\n    command: echo a\n    needs: [b]\n");

    assertThatThrownBy(() -> WorkflowParser.read(file))
        .isInstanceOf(InvalidWorkflowException.class)
        .hasMessage(file + ":5: job 'a' needs unknown job 'b'");
    assertThatThrownBy(() -> WorkflowParser.read(dir.resolve("missing.yaml")))
        .hasMessage(dir.resolve("missing.yaml") + ": cannot read the workflow file: no such file");
  }
}
