package dev.flipper.queue;

/**
 * The life-cycle state of a job. The numeric codes are PinLater's wire values and are stored as-is.
 *
 * <pre>
 *   enqueue ──► PENDING ──dequeue──► IN_PROGRESS ──ack ok──► SUCCEEDED ──gc──► (gone)
 *                  ▲                    │  │
 *                  └──ack failed / time-out / checkpoint(moveToPending)   (attempts left)
 *                                       └──ack failed / time-out ──► FAILED ──gc──► (gone)
 *                  ▲                                   (no attempts left)  │
 *                  └──────────────── retryFailedJobs ◄─────────────────────┘
 * </pre>
 */
public enum JobState {
  PENDING(0),
  IN_PROGRESS(1),
  SUCCEEDED(2),
  FAILED(3);

  private final int code;

  JobState(int code) {
    this.code = code;
  }

  /** The PinLater wire and storage value. */
  public int code() {
    return code;
  }

  /**
   * Returns the state for a wire value, or throws a {@link QueueException} naming the allowed
   * values.
   */
  public static JobState fromCode(int code) {
    for (JobState state : values()) {
      if (state.code == code) {
        return state;
      }
    }
    throw QueueException.invalid(
        "job state "
            + code
            + " is not valid; allowed: 0 (PENDING), 1 (IN_PROGRESS), 2 (SUCCEEDED), 3 (FAILED)");
  }

  /** True for SUCCEEDED and FAILED, the states that garbage collection removes. */
  public boolean isFinished() {
    return this == SUCCEEDED || this == FAILED;
  }
}
