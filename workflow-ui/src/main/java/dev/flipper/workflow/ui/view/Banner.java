package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * What every page shows above its content: the signals in force (global drain, abort, exit; and the
 * workflow's or instance's own on their pages) and whether the master answered. Immutable.
 *
 * @param signals e.g. {@code DRAIN (global)}, {@code ABORT (instance)}; empty when none
 * @param masterProblem null when the master answered, else why it did not ({@code master
 *     unreachable at ...})
 */
public record Banner(List<String> signals, String masterProblem) {
  public Banner {
    signals = List.copyOf(signals);
  }

  public static Banner unreachable(String problem) {
    return new Banner(List.of(), problem);
  }
}
