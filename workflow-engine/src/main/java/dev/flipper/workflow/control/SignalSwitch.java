package dev.flipper.workflow.control;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.SignalData;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Sets or removes a signal at a scope, each one atomic modify retried whole on a conflict: setting
 * writes the signal (and what {@code alongside} adds in the same change); removing deletes it and
 * releases, in the same change, the runnable jobs the engine held because of it (owner {@code
 * drained}, {@code paused}, ...), so they are claimed again. A job still covered by another scope's
 * signal is held again by the claimer. Setting a set signal or removing an absent one changes
 * nothing. Thread-safe.
 */
final class SignalSwitch {
  private final TokenMaster master;
  private final Clock clock;

  SignalSwitch(TokenMaster master, Clock clock) {
    this.master = master;
    this.clock = clock;
  }

  /** Sets {@code action} at {@code scope}; {@code alongside} may add writes to the same change. */
  ControlResult set(
      String operation, SignalAction action, ControlScope scope, Consumer<TokenEdit> alongside) {
    return ConflictRetry.run(
        operation + " " + scope,
        () -> {
          TokenEdit edit = new TokenEdit();
          Optional<Token> current = exact(scope.signal(action));
          if (current.isEmpty()) {
            SignalData data = new SignalData();
            data.action = action.name();
            data.timestampMillis = clock.millis();
            edit.add(Token.of(scope.signal(action), Json.write(data)), action + " signal set");
          } else {
            edit.note(action + " is already set at " + scope);
          }
          alongside.accept(edit);
          edit.commit(master);
          return edit.result(operation, scope);
        });
  }

  ControlResult set(String operation, SignalAction action, ControlScope scope) {
    return set(operation, action, scope, edit -> {});
  }

  /**
   * Removes {@code action} at {@code scope} and releases the runnable jobs under the scope held by
   * {@code holdOwner} that {@code release} accepts.
   */
  ControlResult remove(
      String operation,
      SignalAction action,
      ControlScope scope,
      String holdOwner,
      Predicate<Token> release) {
    return ConflictRetry.run(
        operation + " " + scope,
        () -> {
          TokenEdit edit = new TokenEdit();
          Optional<Token> current = exact(scope.signal(action));
          if (current.isPresent()) {
            edit.delete(current.get(), action + " signal removed");
          } else {
            edit.note(action + " is not set at " + scope);
          }
          master.query(Query.prefix(scope.runnablePrefix())).stream()
              .filter(t -> holdOwner.equals(t.owner()) && release.test(t))
              .forEach(t -> edit.update(t.withoutOwner(), "released (was held " + holdOwner + ")"));
          edit.commit(master);
          return edit.result(operation, scope);
        });
  }

  Optional<Token> exact(String name) {
    return master.query(Query.prefix(name)).stream().filter(t -> t.name().equals(name)).findFirst();
  }
}
