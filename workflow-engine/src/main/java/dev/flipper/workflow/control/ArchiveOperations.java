package dev.flipper.workflow.control;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.Owners;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;

/**
 * {@code archive} and {@code unarchive} at global, workflow or instance scope: an ARCHIVE signal
 * makes the covered instances due for archiving as soon as they end, without the archive delay (12
 * h by default). Set, in the same change, the instances under the scope that have ended already
 * become due now. Unarchive removes the signal; instances made due stay due. Thread-safe.
 */
final class ArchiveOperations {
  private final WorkflowEngine engine;
  private final SignalSwitch signals;
  private final Clock clock;

  ArchiveOperations(WorkflowEngine engine, SignalSwitch signals, Clock clock) {
    this.engine = engine;
    this.signals = signals;
    this.clock = clock;
  }

  ControlResult archive(ControlScope scope) {
    ScopeCheck.requireExists(engine, scope);
    return signals.set(
        "archive",
        SignalAction.ARCHIVE,
        scope,
        edit -> {
          long now = clock.millis() / 1000; // whole seconds, down: claimable at once
          String prefix =
              scope.isInstance()
                  ? TokenLayout.archive(scope.workflow().get(), scope.instance().get())
                  : scope
                      .workflow()
                      .map(wf -> TokenLayout.ARCHIVE + wf + "/")
                      .orElse(TokenLayout.ARCHIVE);
          for (Token token : engine.master().query(Query.prefix(prefix))) {
            boolean exact = !scope.isInstance() || token.name().equals(prefix);
            if (exact
                && Owners.ARCHIVE_DELAY.equals(token.owner())
                && token.expirationTime() > now) {
              edit.update(token.withOwner(Owners.ARCHIVE_DELAY, now), "due for archiving now");
            }
          }
        });
  }

  ControlResult unarchive(ControlScope scope) {
    return signals.remove(
        "unarchive", SignalAction.ARCHIVE, scope, Owners.ARCHIVER, token -> false);
  }
}
