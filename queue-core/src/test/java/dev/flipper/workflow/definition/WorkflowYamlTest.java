package dev.flipper.workflow.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The canonical YAML text: what the master will store, read back to an equal definition. */
class WorkflowYamlTest {
  static Stream<Path> validFiles() {
    return WorkflowFiles.in("valid").stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validFiles")
  void canonicalTextReadsBackToAnEqualDefinitionAndIsStable(Path file) {
    WorkflowDefinition definition =
        WorkflowParser.parse(file.getFileName().toString(), WorkflowFiles.text(file));

    String yaml = definition.toYaml();
    WorkflowDefinition back = WorkflowParser.parse("stored", yaml);

    assertThat(back).isEqualTo(definition);
    assertThat(back.toYaml()).isEqualTo(yaml);
  }

  @Test
  void canonicalTextOfTheIssueExample() {
    assertThat(WorkflowFiles.valid("issue-example.yaml").toYaml())
        .isEqualTo(
            """
        workflow: etl
        description: Nightly load
        owners: [data-team]
        emails: [data@example.com]
        schedule:
          every: 1h
          start: '2026-01-01T00:00:00Z'
          overrun: SKIP
          maxRunning: 3
          catchUp: 0
        jobs:
          extract:
            command: ./extract.sh --day "$FLIPPER_INSTANCE"
            maxAttempts: 3
            retryDelay: 30s
          check_partner:
            command: test -f /data/partner.done
            condition: true
            maxAttempts: 10
            retryDelay: 5m
          transform:
            command: ./transform.sh %(path)s
            needs: [extract, check_partner]
            maxAttempts: 1
            retryDelay: 0s
            warnTimeout: 30m
            abortTimeout: 2h
            cleanup: ./kill.sh %(kill_id)s
            emails: [oncall@example.com]
            priority: 10
        """);
  }

  @Test
  void awkwardTextSurvivesTheRoundTrip() {
    WorkflowDefinition definition =
        WorkflowDefinition.builder("odd")
            .description("line one\nline two: with a colon, # and a hash")
            .owners("'quoted'", "yes", "123")
            .schedule(
                Schedule.cron("0 0 3 * * ?")
                    .timezone(ZoneId.of("America/Sao_Paulo"))
                    .start(Instant.parse("2026-03-01T12:30:00Z"))
                    .overrun(OverrunPolicy.START_NEW)
                    .maxRunning(1)
                    .catchUp(5))
            .job(
                JobDefinition.builder("a")
                    .command("%(x)s && echo \"$HOME\" | tr 'a' 'b' ; echo '%%'")
                    .cleanup("kill -9 %(kill_id)s")
                    .priority(-3)
                    .disabled(true)
                    .retryDelay(Duration.ofMillis(1500)))
            .job(JobDefinition.builder("b-2").needs("a").command("true").emails("x@example.com"))
            .build();

    WorkflowDefinition back = WorkflowParser.parse("stored", definition.toYaml());

    assertThat(back).isEqualTo(definition);
  }
}
