package dev.flipper.workflow.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.JobStatus;
import dev.flipper.workflow.engine.SettableClock;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.JobData;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WorkflowControl#preview}: it lists exactly what the operation then changes, and changes
 * nothing itself. The graph: extract, then transform, then load; side beside them.
 */
class ActionPreviewTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-28T01:00:00Z"));
  private final TokenMaster master =
      TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
  private final WorkflowEngine engine = WorkflowEngine.builder(master).clock(clock).build();
  private final WorkflowControl control = WorkflowControl.builder(engine).clock(clock).build();
  private String inst;

  @BeforeEach
  void failExtract() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("etl")
                    .job(job("extract"))
                    .job(job("transform", "extract"))
                    .job(job("load", "transform"))
                    .job(job("side"))
                    .build()));
    inst = engine.instances().start("etl");
    runAll(Map.of("extract", 1));
  }

  @Test
  void retryPreviewListsTheFailedJobAndTheJobsBelowItAndRetryRerunsExactlyThose() {
    ActionPreview preview = control.preview("retry", "etl", inst, List.of());

    assertThat(preview.changes())
        .containsExactly(
            new PlannedChange("extract", "FAILURE", "RUNNABLE", "reruns with its last events"),
            new PlannedChange("transform", "UPSTREAM_FAILED", "WAITING", "downstream of extract"),
            new PlannedChange("load", "UPSTREAM_FAILED", "WAITING", "downstream of transform"),
            new PlannedChange("instance", "FAILURE", "RUNNING", "a job runs again"));
    assertThat(statuses()).containsEntry("extract", JobStatus.FAILURE); // the preview wrote nothing

    control.retry("etl", inst);
    assertThat(statuses())
        .containsExactly(
            Map.entry("extract", JobStatus.RUNNABLE),
            Map.entry("side", JobStatus.SUCCESS),
            Map.entry("transform", JobStatus.WAITING),
            Map.entry("load", JobStatus.WAITING));
    assertThat(control.preview("retry", "etl", inst, List.of()).changes()).isEmpty();
    assertThat(control.preview("retry", "etl", inst, List.of()).notes())
        .containsExactly("no failed job in instance etl/" + inst);
  }

  @Test
  void poisonPreviewListsTheJobsAndEverythingDownstreamAsPoisonThenRunsThem() {
    ActionPreview preview = control.preview("poison", "etl", inst, List.of("transform"));

    assertThat(preview.changes())
        .containsExactly(
            new PlannedChange("transform", "UPSTREAM_FAILED", "RUNNABLE", "selected: runs again"),
            new PlannedChange("load", "UPSTREAM_FAILED", "WAITING", "downstream of transform"),
            new PlannedChange("instance", "FAILURE", "RUNNING", "a job runs again"));
    control.poison("etl", inst, List.of("transform"));
    assertThat(statuses()).containsEntry("transform", JobStatus.RUNNABLE);
    assertThat(control.preview("poison", "etl", inst, List.of("transform")).notes())
        .containsExactly("poison is refused: job transform is runnable or running");
  }

  @Test
  void disablePreviewSkipsJobsAlreadyDisabledAndPauseOfAnEndedInstanceIsRefused() {
    control.disable("etl", inst, List.of("load"));

    ActionPreview preview = control.preview("disable", "etl", inst, List.of("load", "side"));
    assertThat(preview.changes()).extracting(PlannedChange::subject).containsExactly("side");
    assertThat(preview.notes()).containsExactly("job load is already disabled");
    assertThat(control.preview("pause", "etl", inst, List.of()).notes())
        .containsExactly("the instance has ended (FAILURE): pause is refused");
    assertThatThrownBy(() -> control.preview("disable", "etl", inst, List.of("nope")))
        .hasMessageContaining("has no job 'nope'");
    assertThatThrownBy(() -> control.preview("start", "etl", inst, List.of()))
        .hasMessageContaining("no preview of 'start'");
  }

  @Test
  void downstreamFollowsOutputsAndRunsAtOnceOnlyWhereNoInputIsInTheSet() {
    Map<String, JobData> jobs = new LinkedHashMap<>();
    jobs.put("a", data("a", List.of(), List.of("b")));
    jobs.put("b", data("b", List.of("a"), List.of("c")));
    jobs.put("c", data("c", List.of("b"), List.of()));
    jobs.put("d", data("d", List.of(), List.of()));

    assertThat(RerunPlan.downstream(jobs, List.of("b"))).containsExactly("b", "c");
    assertThat(RerunPlan.runsAtOnce(jobs.get("b"), RerunPlan.downstream(jobs, List.of("b"))))
        .isTrue();
    assertThat(RerunPlan.runsAtOnce(jobs.get("c"), RerunPlan.downstream(jobs, List.of("b"))))
        .isFalse();
  }

  private static JobData data(String name, List<String> inputs, List<String> outputs) {
    JobData data = new JobData();
    data.name = name;
    data.inputs = inputs;
    data.outputs = outputs;
    return data;
  }

  private Map<String, JobStatus> statuses() {
    Map<String, JobStatus> statuses = new LinkedHashMap<>();
    for (JobDetail job : engine.status().instance("etl", inst).orElseThrow().jobs()) {
      statuses.put(job.name(), job.status());
    }
    return statuses;
  }

  private static JobDefinition.Builder job(String name, String... needs) {
    return JobDefinition.builder(name).command("run " + name).needs(needs);
  }

  /** Claims and runs whatever is runnable until nothing is; jobs in {@code exits} exit so. */
  private void runAll(Map<String, Integer> exits) {
    for (Optional<ClaimedJob> next;
        (next = engine.claim("w", Duration.ofMinutes(5))).isPresent(); ) {
      ClaimedJob job = next.get();
      engine.start(job, new ExecutionStart(job.command(), "host1", Map.of()));
      engine.finish(job, ExecutionResult.exit(exits.getOrDefault(job.job(), 0)));
    }
  }
}
