package dev.flipper.workflow.control;

import java.util.List;
import java.util.Optional;

/**
 * What a control operation changed, for the CLI (human and {@code --json}) and the UI. An operation
 * that found nothing to do returns no changes: that is what a second identical call returns.
 * Immutable.
 *
 * @param operation the operation's name, as the CLI spells it ({@code drain}, {@code retry}, ...)
 * @param target what it was applied to: {@code global}, {@code workflow WF}, {@code instance WF/ID}
 * @param changes every token written, in the order written (all in one atomic change unless the
 *     operation's documentation says otherwise)
 * @param notes why something was left alone, e.g. "job b is already runnable"
 * @param instance the instance it created or revived, when it did ({@code start}, {@code retry})
 * @param logUrls {@code cleanup}: the log URLs of the executions it deleted, for whoever deletes
 *     the files
 */
public record ControlResult(
    String operation,
    String target,
    List<Change> changes,
    List<String> notes,
    Optional<String> instance,
    List<String> logUrls) {

  public ControlResult {
    changes = List.copyOf(changes);
    notes = List.copyOf(notes);
    logUrls = List.copyOf(logUrls);
  }

  /** One token written. {@code action} is {@code added}, {@code updated} or {@code deleted}. */
  public record Change(String action, String token, String detail) {
    @Override
    public String toString() {
      return action + " " + token + (detail == null || detail.isEmpty() ? "" : ": " + detail);
    }
  }

  public boolean changed() {
    return !changes.isEmpty();
  }

  /** The names of the tokens written. */
  public List<String> tokens() {
    return changes.stream().map(Change::token).toList();
  }
}
