package dev.flipper.workflow.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class WorkflowGraphTest {
  private static JobDefinition.Builder job(String name, String... needs) {
    return JobDefinition.builder(name).command("true").needs(needs);
  }

  @Test
  void diamondHasParentsChildrenRootsAndFinals() {
    WorkflowGraph g = WorkflowFiles.valid("diamond.yaml").graph();

    assertThat(g.jobs()).containsExactly("top", "left", "right", "bottom");
    assertThat(g.parents("bottom")).containsExactly("left", "right");
    assertThat(g.children("top")).containsExactly("left", "right");
    assertThat(g.children("bottom")).isEmpty();
    assertThat(g.roots()).containsExactly("top");
    assertThat(g.finals()).containsExactly("bottom");
    assertThat(g.topologicalOrder()).containsExactly("top", "left", "right", "bottom");
    assertThat(g.downstream("top")).containsExactly("left", "right", "bottom");
    assertThat(g.downstreamCount("left")).isEqualTo(1);
  }

  @Test
  void topologicalOrderPutsParentsFirstAndOtherwiseKeepsTheWrittenOrder() {
    WorkflowGraph g =
        WorkflowDefinition.builder("w")
            .job(job("report", "load", "check"))
            .job(job("load", "extract"))
            .job(job("check"))
            .job(job("extract"))
            .job(job("unrelated"))
            .build()
            .graph();

    assertThat(g.topologicalOrder())
        .containsExactly("check", "extract", "load", "report", "unrelated");
    assertThat(g.roots()).containsExactly("check", "extract", "unrelated");
    assertThat(g.finals()).containsExactly("report", "unrelated");
  }

  @Test
  void defaultPriorityIsOnePlusTheJobsDownstreamCountedOnce() {
    WorkflowGraph g = WorkflowFiles.valid("diamond.yaml").graph();

    // bottom is downstream of top twice (through left and right) but counts once.
    assertThat(g.priority("top")).isEqualTo(4);
    assertThat(g.priority("left")).isEqualTo(2);
    assertThat(g.priority("right")).isEqualTo(2);
    assertThat(g.priority("bottom")).isEqualTo(1);
  }

  @Test
  void anExplicitPriorityReplacesTheDefaultForThatJobOnly() {
    WorkflowGraph g = WorkflowFiles.valid("issue-example.yaml").graph();

    assertThat(g.priority("transform")).isEqualTo(10); // written: priority: 10
    assertThat(g.priority("extract")).isEqualTo(2); // 1 + transform
    assertThat(g.priority("check_partner")).isEqualTo(2); // conditions follow the same rule
    assertThat(g.roots()).containsExactly("extract", "check_partner");
    assertThat(g.finals()).containsExactly("transform");
  }

  @Test
  void aLongChainAndAWideFanOutAreCheap() {
    WorkflowDefinition.Builder chain = WorkflowDefinition.builder("chain").job(job("j0"));
    for (int i = 1; i < 2_000; i++) {
      chain.job(job("j" + i, "j" + (i - 1)));
    }
    WorkflowGraph c = chain.build().graph();
    assertThat(c.priority("j0")).isEqualTo(2_000);
    assertThat(c.topologicalOrder()).first().isEqualTo("j0");

    WorkflowDefinition.Builder fan = WorkflowDefinition.builder("fan").job(job("root"));
    List<String> middle = new ArrayList<>();
    for (int i = 0; i < 998; i++) {
      fan.job(job("m" + i, "root"));
      middle.add("m" + i);
    }
    fan.job(job("join", middle.toArray(String[]::new)));
    WorkflowGraph f = fan.build().graph();
    assertThat(f.priority("root")).isEqualTo(1_000);
    assertThat(f.priority("m5")).isEqualTo(2);
    assertThat(f.topologicalOrder()).hasSize(1_000).last().isEqualTo("join");
  }

  @Test
  void cyclesAreListedInRunOrderFromTheJobWrittenFirst() {
    Map<String, List<String>> parents = new LinkedHashMap<>();
    parents.put("a", List.of("c"));
    parents.put("b", List.of("a"));
    parents.put("c", List.of("b"));
    parents.put("d", List.of("c")); // downstream of the cycle, not on it
    parents.put("e", List.of("e"));
    parents.put("f", List.of());

    assertThat(WorkflowGraph.cycles(List.copyOf(parents.keySet()), parents))
        .containsExactly(List.of("a", "b", "c", "a"), List.of("e", "e"));
  }

  @Test
  void aFigureEightIsOneProblemWithItsShortestCycle() {
    Map<String, List<String>> parents = new LinkedHashMap<>();
    parents.put("a", List.of("b", "d"));
    parents.put("b", List.of("a"));
    parents.put("c", List.of("a"));
    parents.put("d", List.of("c"));

    assertThat(WorkflowGraph.cycles(List.copyOf(parents.keySet()), parents))
        .containsExactly(List.of("a", "b", "a"));
  }

  @Test
  void unknownJobsAreNamed() {
    WorkflowGraph g = WorkflowFiles.valid("diamond.yaml").graph();

    assertThatThrownBy(() -> g.parents("nope"))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessage("no job 'nope' in this workflow");
  }
}
