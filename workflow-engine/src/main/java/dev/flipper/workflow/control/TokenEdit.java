package dev.flipper.workflow.control;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The writes of one operation, collected and then sent as one modify, so the operation is atomic;
 * each write is noted as a {@link ControlResult.Change}. Rewrites and deletes carry the version
 * read, so a concurrent writer makes the whole modify fail and the operation is retried from its
 * reads. Not thread-safe.
 */
final class TokenEdit {
  private final List<Token> updates = new ArrayList<>();
  private final List<Token> deletes = new ArrayList<>();
  private final List<ControlResult.Change> changes = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  /** A new token (version 0: fails if it exists). */
  TokenEdit add(Token token, String detail) {
    updates.add(token.withVersion(0));
    changes.add(new ControlResult.Change("added", token.name(), detail));
    return this;
  }

  /** A rewrite of a token read with its version. */
  TokenEdit update(Token token, String detail) {
    updates.add(token);
    changes.add(new ControlResult.Change("updated", token.name(), detail));
    return this;
  }

  TokenEdit delete(Token token, String detail) {
    deletes.add(token);
    changes.add(new ControlResult.Change("deleted", token.name(), detail));
    return this;
  }

  TokenEdit note(String note) {
    notes.add(note);
    return this;
  }

  boolean isEmpty() {
    return updates.isEmpty() && deletes.isEmpty();
  }

  List<ControlResult.Change> changes() {
    return changes;
  }

  List<String> notes() {
    return notes;
  }

  ControlResult result(String operation, Object target) {
    return new ControlResult(
        operation, target.toString(), changes, notes, Optional.empty(), List.of());
  }

  ControlResult result(String operation, Object target, String instance) {
    return new ControlResult(
        operation, target.toString(), changes, notes, Optional.of(instance), List.of());
  }

  /** Sends everything in one modify (nothing if empty). */
  void commit(TokenMaster master) {
    if (!isEmpty()) {
      master.modify(new ModifyParams(updates, deletes));
    }
  }
}
