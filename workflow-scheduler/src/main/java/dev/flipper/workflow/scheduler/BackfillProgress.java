package dev.flipper.workflow.scheduler;

import java.time.Instant;

/**
 * What a {@link Backfill} reports as it goes, and how it waits while the workflow runs as many
 * instances as its schedule's {@code maxRunning} allows.
 */
public interface BackfillProgress {
  /** An instance started for {@code slot}. */
  void started(String instance, Instant slot);

  /**
   * {@code running} instances run, at most {@code maxRunning} may, and {@code left} slots wait:
   * return after a pause, and the backfill counts again.
   */
  void waitForRoom(int running, int maxRunning, int left) throws InterruptedException;
}
