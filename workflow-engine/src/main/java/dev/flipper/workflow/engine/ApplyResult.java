package dev.flipper.workflow.engine;

import java.util.List;

/**
 * What {@link Definitions#apply} changed, workflow names in name order. Immutable.
 *
 * @param added new workflows
 * @param changed workflows whose definition changed (a new version)
 * @param removed workflows deleted because they were not in the applied set (only with prune)
 * @param unchanged workflows applied with the version already stored: not rewritten
 */
public record ApplyResult(
    List<String> added, List<String> changed, List<String> removed, List<String> unchanged) {
  public ApplyResult {
    added = List.copyOf(added);
    changed = List.copyOf(changed);
    removed = List.copyOf(removed);
    unchanged = List.copyOf(unchanged);
  }

  public boolean changedAnything() {
    return !added.isEmpty() || !changed.isEmpty() || !removed.isEmpty();
  }
}
