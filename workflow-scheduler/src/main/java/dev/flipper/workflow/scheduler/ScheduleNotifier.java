package dev.flipper.workflow.scheduler;

import java.time.Instant;
import java.util.List;

/**
 * Tells people about schedules that need them. Implementations must not throw and must not block
 * for long.
 */
public interface ScheduleNotifier {

  /**
   * A due start was refused because {@code running} instances run and at most {@code maxRunning}
   * may.
   */
  void tooManyInstances(
      String workflow, int running, int maxRunning, Instant slot, List<String> recipients);

  /** A notifier that does nothing (no e-mail configured). */
  static ScheduleNotifier none() {
    return (workflow, running, maxRunning, slot, recipients) -> {};
  }
}
