package dev.flipper.workflow.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.Query;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.Event;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.SettableClock;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The events poison computes, with the events already waiting taken into account (Pinball's
 * analyzer test: "poisoning all roots with the existing events considered gives 8 new event
 * tokens"), on a three-level inverted binary tree whose four roots have two inputs each.
 */
class PoisonEventsTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T01:00:00Z"));
  private final TokenMaster master =
      TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
  private final WorkflowEngine engine = WorkflowEngine.builder(master).clock(clock).build();
  private final WorkflowControl control = WorkflowControl.builder(engine).clock(clock).build();

  @Test
  void poisoningAllRootsGivesEachOfTheirEightInputsOneEventUsingTheOneAlreadyWaiting() {
    WorkflowDefinition.Builder tree = WorkflowDefinition.builder("tree");
    for (int i = 1; i <= 8; i++) {
      tree.job(job("s" + i));
    }
    tree.job(job("r1", "s1", "s2"))
        .job(job("r2", "s3", "s4"))
        .job(job("r3", "s5", "s6"))
        .job(job("r4", "s7", "s8"))
        .job(job("m1", "r1", "r2"))
        .job(job("m2", "r3", "r4"))
        .job(job("b", "m1", "m2"));
    engine.definitions().apply(List.of(tree.build()));
    String inst = engine.instances().start("tree");
    assertThat(runEverything()).hasSize(15);
    // s1 runs again: its event waits in r1's input s1 (r1's other input has none, so r1 stays
    // waiting).
    control.redo("tree", inst, "s1", 1);
    assertThat(runEverything()).containsExactly("s1");
    assertThat(eventNames(inst)).containsExactly(TokenLayout.event("tree", inst, "r1", "s1", "e2"));

    ControlResult poisoned = control.poison("tree", inst, List.of("r1", "r2", "r3", "r4"));

    // The four roots are runnable at once, each with one event per input: 8 events, the waiting one
    // used
    // (and deleted) and 7 new ones; no event token is left or added.
    assertThat(poisoned.changes())
        .filteredOn(c -> c.token().contains("/input/"))
        .extracting(ControlResult.Change::action)
        .containsExactly("deleted");
    assertThat(eventNames(inst)).isEmpty();
    List<ClaimedJob> roots = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      roots.add(engine.claim("w", Duration.ofMinutes(5)).orElseThrow());
    }
    assertThat(engine.claim("w", Duration.ofMinutes(5))).isEmpty();
    List<Event> events = roots.stream().flatMap(r -> r.events().stream()).toList();
    assertThat(roots).extracting(ClaimedJob::job).containsExactlyInAnyOrder("r1", "r2", "r3", "r4");
    assertThat(events).hasSize(8);
    assertThat(events)
        .extracting(Event::input)
        .containsExactlyInAnyOrder("s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8");
    assertThat(events).filteredOn(e -> e.creator().equals("poison")).hasSize(7);
    assertThat(events)
        .filteredOn(e -> e.input().equals("s1"))
        .extracting(Event::creator)
        .containsExactly("s1#2");

    roots.forEach(this::run);
    assertThat(runEverything()).containsExactlyInAnyOrder("m1", "m2", "b");
    assertThat(engine.status().instance("tree", inst).orElseThrow().summary().status())
        .isEqualTo(InstanceStatus.SUCCESS);
  }

  private static JobDefinition.Builder job(String name, String... needs) {
    return JobDefinition.builder(name).command("run " + name).needs(needs);
  }

  private List<String> eventNames(String inst) {
    return master.query(Query.prefix(TokenLayout.instancePrefix("tree", inst) + "input/")).stream()
        .map(t -> t.name())
        .toList();
  }

  private void run(ClaimedJob job) {
    engine.start(job, new ExecutionStart(job.command(), "host1", Map.of()));
    engine.finish(job, ExecutionResult.exit(0));
  }

  /** Claims and runs to success whatever is runnable until nothing is; the jobs run, in order. */
  private List<String> runEverything() {
    List<String> ran = new ArrayList<>();
    for (Optional<ClaimedJob> next;
        (next = engine.claim("w", Duration.ofMinutes(5))).isPresent(); ) {
      ran.add(next.get().job());
      run(next.get());
    }
    return ran;
  }
}
