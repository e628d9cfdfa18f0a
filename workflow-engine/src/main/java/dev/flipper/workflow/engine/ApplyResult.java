package dev.flipper.workflow.engine;

import java.util.List;

/**
 * What {@link Definitions#apply} changed, workflow names in name order. Immutable.
 *
 * @param added new workflows
 * @param changed workflows whose definition changed (a new version)
 * @param removed workflows deleted because they were not in the applied set (only with prune)
 * @param unchanged workflows applied with the version already stored: not rewritten
 * @param repaired workflows whose stored text did not match its content hash (damaged or tampered
 *     with in the store): rewritten from the applied definition, whatever its version label said
 */
public record ApplyResult(
    List<String> added,
    List<String> changed,
    List<String> removed,
    List<String> unchanged,
    List<String> repaired) {
  public ApplyResult {
    added = List.copyOf(added);
    changed = List.copyOf(changed);
    removed = List.copyOf(removed);
    unchanged = List.copyOf(unchanged);
    repaired = List.copyOf(repaired);
  }

  /** Nothing repaired. */
  public ApplyResult(
      List<String> added, List<String> changed, List<String> removed, List<String> unchanged) {
    this(added, changed, removed, unchanged, List.of());
  }

  public boolean changedAnything() {
    return !added.isEmpty() || !changed.isEmpty() || !removed.isEmpty() || !repaired.isEmpty();
  }
}
