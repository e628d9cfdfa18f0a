package dev.flipper.workflow.engine;

import java.util.List;

/**
 * Why a running instance starts nothing new: its PAUSE signal, or a DRAIN signal at one or more
 * levels. Derived from the signals when the instance is read. Immutable.
 *
 * @param signal PAUSE or DRAIN (PAUSE when both are set: resume is what the instance waits for)
 * @param levels where the signal is set: {@code global}, {@code workflow}, {@code instance}
 */
public record InstanceHold(SignalAction signal, List<String> levels) {
  public InstanceHold {
    levels = List.copyOf(levels);
  }

  /** PAUSED or DRAINED. */
  public InstanceStatus status() {
    return signal == SignalAction.PAUSE ? InstanceStatus.PAUSED : InstanceStatus.DRAINED;
  }

  /** {@code DRAIN signal (workflow level)}, for a detail line. */
  public String describe() {
    return signal + " signal (" + String.join(", ", levels) + " level)";
  }
}
