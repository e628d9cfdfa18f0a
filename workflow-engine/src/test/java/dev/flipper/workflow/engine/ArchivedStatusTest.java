package dev.flipper.workflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Archived instances stay readable through the store's archived tokens: a list from their archive
 * tokens, jobs.
 */
class ArchivedStatusTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T01:00:00Z"));
  private final InMemoryTokenStore store = InMemoryTokenStore.create();
  private final TokenService master = TokenService.builder(store).clock(clock).build();
  private final WorkflowEngine engine =
      WorkflowEngine.builder(master).clock(clock).archiveDelay(Duration.ZERO).build();
  private final StatusReader status = engine.status().withArchive(store::queryArchived);

  private String runToEnd(String workflow, int exitCodeOfB) {
    String inst =
        engine
            .instances()
            .start(workflow, "scheduler", Map.of("scheduledTime", "2026-11-24T00:00:00Z"));
    for (int i = 0; i < 2; i++) {
      engine
          .claim("w", Duration.ofMinutes(1))
          .ifPresent(
              job -> {
                engine.start(
                    job,
                    new ExecutionStart(
                        job.command(), "h", Map.of("stdout", "http://h/" + job.job())));
                engine.finish(job, ExecutionResult.exit(job.job().equals("b") ? exitCodeOfB : 0));
              });
      clock.advance(Duration.ofSeconds(1));
    }
    return inst;
  }

  @Test
  void archivedInstancesAreListedAndShownWithTheirJobs() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("wf")
                    .job(JobDefinition.builder("a").command("run a"))
                    .job(JobDefinition.builder("b").needs("a").command("run b"))
                    .build()));
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("wf2") // a name extending "wf"
                    .job(JobDefinition.builder("a").command("run a"))
                    .build()));
    String ok = runToEnd("wf", 0);
    String failed = runToEnd("wf", 7);
    String other = engine.instances().start("wf2");
    clock.advance(Duration.ofSeconds(2));
    assertThat(engine.archiveDue()).isEqualTo(2);
    assertThat(engine.status().instances("wf")).isEmpty();

    assertThat(status.archivedInstances("wf"))
        .extracting(InstanceSummary::instance, InstanceSummary::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(ok, InstanceStatus.SUCCESS),
            org.assertj.core.groups.Tuple.tuple(failed, InstanceStatus.FAILURE));
    InstanceSummary summary = status.archivedInstances("wf").get(1);
    assertThat(summary.end()).isPresent();
    assertThat(summary.failedJobs()).containsExactly("b");
    assertThat(summary.params()).containsEntry("scheduledTime", "2026-11-24T00:00:00Z");

    InstanceDetail detail = status.archivedInstance("wf", failed).orElseThrow();
    assertThat(detail.summary().status()).isEqualTo(InstanceStatus.FAILURE);
    assertThat(detail.jobs())
        .extracting(JobDetail::name, JobDetail::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", JobStatus.SUCCESS),
            org.assertj.core.groups.Tuple.tuple("b", JobStatus.FAILURE));
    assertThat(detail.job("b").orElseThrow().lastExecution().orElseThrow().exitCode()).isEqualTo(7);
    assertThat(status.archivedInstance("wf", other)).isEmpty(); // still active
    assertThat(engine.status().archivedInstances("wf")).isEmpty(); // no archive access given
  }

  @Test
  void anArchiveTokenWithoutTheRecordFallsBackToTheArchivedRecord() throws Exception {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("old")
                    .job(JobDefinition.builder("a").command("run a"))
                    .build()));
    String inst = engine.instances().start("old");
    engine
        .claim("w", Duration.ofMinutes(1))
        .ifPresent(
            job -> {
              engine.start(job, new ExecutionStart(job.command(), "h", Map.of()));
              engine.finish(job, ExecutionResult.exit(0));
            });
    // As an archive token written before it carried the record.
    Token archive = master.query(Query.prefix(TokenLayout.archive("old", inst))).get(0);
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode tree =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(archive.data());
    assertThat(tree.remove("record")).isNotNull();
    String data = json.writeValueAsString(tree);
    master.modify(ModifyParams.updating(archive.withData(data)));
    clock.advance(Duration.ofSeconds(2));
    assertThat(engine.archiveDue()).isEqualTo(1);

    assertThat(status.archivedInstances("old"))
        .extracting(InstanceSummary::instance, InstanceSummary::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(inst, InstanceStatus.SUCCESS));
  }

  @Test
  void theListenerHearsEachArchivedInstanceWithTheWorkflowsEmails() throws Exception {
    List<String> heard = new java.util.ArrayList<>();
    WorkflowEngine listening =
        WorkflowEngine.builder(master)
            .clock(clock)
            .archiveDelay(Duration.ZERO)
            .listener(
                new EngineListener() {
                  @Override
                  public void instanceArchived(
                      InstanceSummary instance, List<String> workflowEmails) {
                    heard.add(instance.instance() + " " + instance.status() + " " + workflowEmails);
                  }
                })
            .build();
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("ab")
                    .emails("team@example.com")
                    .job(JobDefinition.builder("a").command("run a"))
                    .job(JobDefinition.builder("b").needs("a").command("run b"))
                    .build()));
    String inst = runToEnd("ab", 0);
    // As a control operation's abort leaves it (the engine of this branch ends instances SUCCESS or
    // FAILURE).
    Token record = master.query(Query.prefix(TokenLayout.instanceRecord("ab", inst))).get(0);
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode tree =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(record.data());
    tree.put("status", "ABORTED");
    master.modify(ModifyParams.updating(record.withData(json.writeValueAsString(tree))));
    clock.advance(Duration.ofSeconds(2));

    assertThat(listening.archiveDue()).isEqualTo(1);

    assertThat(heard).containsExactly(inst + " ABORTED [team@example.com]");
  }
}
