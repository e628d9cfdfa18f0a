package dev.flipper.workflow.engine;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.workflow.tokens.TokenLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which instances of one workflow a PAUSE or DRAIN signal holds, from the signal tokens' names
 * (their data is not read): a DRAIN at global, workflow or instance level, a PAUSE at instance
 * level. Immutable.
 */
final class SignalHolds {
  private final String workflow;
  private final List<String> names;

  private SignalHolds(String workflow, List<String> names) {
    this.workflow = workflow;
    this.names = names;
  }

  /** The queries whose answers {@link #of} takes: global, workflow and every instance's signals. */
  static List<Query> queries(String workflow) {
    return List.of(
        Query.prefix(TokenLayout.globalSignalPrefix()),
        Query.prefix(TokenLayout.workflowSignalPrefix(workflow)),
        Query.prefix(TokenLayout.SIGNALS + "instance/" + workflow + "/"));
  }

  /** From the answers to {@link #queries}, in order. */
  static SignalHolds of(String workflow, List<List<Token>> answers) {
    List<String> names = new ArrayList<>();
    answers.forEach(tokens -> tokens.forEach(t -> names.add(t.name())));
    return new SignalHolds(workflow, names);
  }

  /** What holds {@code instance}: its PAUSE if set, else DRAIN at every level it is set at. */
  Optional<InstanceHold> of(String instance) {
    if (names.contains(TokenLayout.instanceSignal(workflow, instance, SignalAction.PAUSE))) {
      return Optional.of(new InstanceHold(SignalAction.PAUSE, List.of("instance")));
    }
    List<String> levels = new ArrayList<>();
    if (names.contains(TokenLayout.globalSignal(SignalAction.DRAIN))) {
      levels.add("global");
    }
    if (names.contains(TokenLayout.workflowSignal(workflow, SignalAction.DRAIN))) {
      levels.add("workflow");
    }
    if (names.contains(TokenLayout.instanceSignal(workflow, instance, SignalAction.DRAIN))) {
      levels.add("instance");
    }
    return levels.isEmpty()
        ? Optional.empty()
        : Optional.of(new InstanceHold(SignalAction.DRAIN, levels));
  }
}
