package dev.flipper.workflow.ui.view;

/**
 * An instance action of the action bar, as it applies to the instance now. Immutable.
 *
 * @param op the action, as {@code POST /actions/<op>} names it
 * @param reason why it cannot apply now ({@code Pause: instance already finished}); null when it
 *     can
 */
public record ActionButton(String op, String label, String reason) {
  public boolean enabled() {
    return reason == null;
  }
}
