package dev.flipper.workflow.control;

import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.fleet.ExitSignal;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code exit} and {@code unexit}: the global EXIT signal of upgrades ({@link ExitSignal}, the code
 * behind {@code flipper workflow exit}), with what it changed as a {@link ControlResult} and, as
 * notes, what it means for the workers alive now. Thread-safe.
 */
final class ExitOperations {
  private static final String TOKEN = TokenLayout.globalSignal(SignalAction.EXIT);

  private final TokenMaster master;
  private final ExitSignal signal;
  private final Clock clock;

  ExitOperations(TokenMaster master, Clock clock) {
    this.master = master;
    this.signal = new ExitSignal(master, clock);
    this.clock = clock;
  }

  /**
   * @throws IllegalArgumentException if {@code generation} is below 1
   */
  ControlResult exit(int generation) {
    return result("exit", signal.set(generation));
  }

  ControlResult unexit() {
    return result("unexit", signal.clear());
  }

  private ControlResult result(String operation, ExitSignal.Change change) {
    List<ControlResult.Change> changes = new ArrayList<>();
    if (change.changed()) {
      String action =
          change.after().isEmpty() ? "deleted" : change.before().isEmpty() ? "added" : "updated";
      changes.add(
          new ControlResult.Change(
              action, TOKEN, "EXIT " + text(change.before()) + " -> " + text(change.after())));
    }
    List<String> notes = new ArrayList<>();
    if (!change.changed()) {
      notes.add("the EXIT signal was already " + text(change.after()));
    }
    Instant now = clock.instant();
    List<Heartbeat> alive =
        new Heartbeats(master).list().stream().filter(w -> w.aliveAt(now)).toList();
    long working = alive.stream().filter(w -> w.takesWork(change.after())).count();
    notes.add(
        "alive workers: "
            + (alive.size() - working)
            + " retiring (they exit after their current jobs), "
            + working
            + " working");
    if (working == 0) {
      notes.add(
          "no alive worker takes work: nothing runs until workers of the new generation start");
    }
    return new ControlResult(
        operation, ControlScope.global().toString(), changes, notes, Optional.empty(), List.of());
  }

  private static String text(Optional<Integer> generation) {
    return generation.map(g -> "workers older than generation " + g + " exit").orElse("none");
  }
}
