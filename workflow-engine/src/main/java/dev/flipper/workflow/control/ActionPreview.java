package dev.flipper.workflow.control;

import java.util.List;

/**
 * What an operation would change if it ran now, computed by {@link WorkflowControl#preview} from
 * the same rules the operation applies, without writing anything. Immutable.
 *
 * @param operation as the CLI spells it
 * @param target {@code instance WF/ID}
 * @param changes every job, and the instance, that would change, in the instance's job order
 * @param notes why something would be left alone or the operation refused
 */
public record ActionPreview(
    String operation, String target, List<PlannedChange> changes, List<String> notes) {
  public ActionPreview {
    changes = List.copyOf(changes);
    notes = List.copyOf(notes);
  }
}
