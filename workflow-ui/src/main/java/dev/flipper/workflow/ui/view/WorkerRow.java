package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * One worker process by its last heartbeat. Immutable; times are ISO-8601 UTC text.
 *
 * @param state {@code alive}; {@code retiring} (alive, obeys an EXIT: it claims nothing more and
 *     exits after its jobs); {@code draining} (alive and not yet retiring, but the EXIT signal
 *     covers its generation: it retires at its next beat); {@code dead} (no beat for longer than
 *     {@code deadAfterSeconds})
 * @param running the jobs it runs
 */
public record WorkerRow(
    String name,
    String host,
    String adminUrl,
    int generation,
    int slots,
    String state,
    String lastBeat,
    long ageSeconds,
    long deadAfterSeconds,
    String started,
    List<RunningJob> running) {
  public WorkerRow {
    running = List.copyOf(running);
  }

  /**
   * A job a worker runs: {@code <workflow>/<instance>/<job>} as its heartbeat lists it, split for
   * links.
   */
  public record RunningJob(String workflow, String instance, String job, String text) {}
}
