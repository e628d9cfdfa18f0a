package dev.flipper.workflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
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
 * The listings of workflows, instances, jobs and waiting events (Pinball's inspector test) on an
 * empty and on a populated token tree.
 */
class StatusListingTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T01:00:00Z"));
  private final TokenMaster master =
      TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
  private final WorkflowEngine engine = WorkflowEngine.builder(master).clock(clock).build();

  @Test
  void anEmptyTreeListsNothing() {
    assertThat(engine.status().workflows()).isEmpty();
    assertThat(engine.status().instances("etl")).isEmpty();
    assertThat(engine.status().instance("etl", "1")).isEmpty();
    assertThat(master.query(Query.prefix(TokenLayout.inputsPrefix("etl", "1", "load")))).isEmpty();
  }

  @Test
  void aPopulatedTreeListsWorkflowsInstancesJobsAndWaitingEvents() {
    WorkflowDefinition chain =
        WorkflowDefinition.builder("chain")
            .job(JobDefinition.builder("first").command("true"))
            .job(JobDefinition.builder("second").command("true").needs("first"))
            .build();
    WorkflowDefinition join =
        WorkflowDefinition.builder("join")
            .job(JobDefinition.builder("left").command("true"))
            .job(JobDefinition.builder("right").command("true"))
            .job(JobDefinition.builder("both").command("true").needs("left", "right"))
            .build();
    WorkflowDefinition idle =
        WorkflowDefinition.builder("idle").job(JobDefinition.builder("j").command("true")).build();
    engine.definitions().apply(List.of(chain, join, idle));
    String chain1 = engine.instances().start("chain");
    clock.advance(Duration.ofSeconds(1));
    String chain2 = engine.instances().start("chain");
    clock.advance(Duration.ofSeconds(1));
    String join1 = engine.instances().start("join");
    // Run the join's left parent and the chain's first instance's first job.
    run(claim("join", join1, "left"));
    run(claim("chain", chain1, "first"));

    assertThat(engine.status().workflows())
        .extracting(WorkflowSummary::name)
        .containsExactly("chain", "idle", "join");
    assertThat(engine.status().workflows())
        .extracting(WorkflowSummary::runningInstances)
        .containsExactly(2, 0, 1);
    assertThat(engine.status().workflows().get(1).lastInstance()).isEmpty();
    assertThat(engine.status().instances("chain"))
        .extracting(InstanceSummary::instance)
        .containsExactly(chain1, chain2);
    assertThat(engine.status().instances("idle")).isEmpty();

    assertThat(jobs("chain", chain1))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("first", JobStatus.SUCCESS, "second", JobStatus.RUNNABLE));
    assertThat(jobs("chain", chain2))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("first", JobStatus.RUNNABLE, "second", JobStatus.WAITING));
    assertThat(jobs("join", join1))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "left", JobStatus.SUCCESS, "right", JobStatus.RUNNABLE, "both", JobStatus.WAITING));
    // The join waits with one event, in the input named after the parent that sent it.
    assertThat(master.query(Query.prefix(TokenLayout.inputsPrefix("join", join1, "both"))))
        .extracting(Token::name)
        .containsExactly(TokenLayout.event("join", join1, "both", "left", "e1"));
    assertThat(master.query(Query.prefix(TokenLayout.inputsPrefix("chain", chain2, "second"))))
        .isEmpty();
    assertThat(engine.status().instance("chain", "no-such-instance")).isEmpty();
  }

  /** Claims runnable jobs until this one, then hands the others back. */
  private ClaimedJob claim(String wf, String inst, String job) {
    List<ClaimedJob> others = new java.util.ArrayList<>();
    try {
      for (java.util.Optional<ClaimedJob> next;
          (next = engine.claim("w", Duration.ofMinutes(5))).isPresent(); ) {
        ClaimedJob claimed = next.get();
        if (claimed.workflow().equals(wf)
            && claimed.instance().equals(inst)
            && claimed.job().equals(job)) {
          return claimed;
        }
        others.add(claimed);
      }
      throw new AssertionError("cannot claim " + wf + "/" + inst + "/" + job);
    } finally {
      others.forEach(engine::release);
    }
  }

  private void run(ClaimedJob job) {
    engine.start(job, new ExecutionStart("true", "host", Map.of()));
    engine.finish(job, ExecutionResult.exit(0));
  }

  private Map<String, JobStatus> jobs(String wf, String inst) {
    Map<String, JobStatus> statuses = new java.util.TreeMap<>();
    engine
        .status()
        .instance(wf, inst)
        .orElseThrow()
        .jobs()
        .forEach(j -> statuses.put(j.name(), j.status()));
    return statuses;
  }
}
