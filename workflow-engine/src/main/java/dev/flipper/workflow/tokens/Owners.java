package dev.flipper.workflow.tokens;

import java.util.Set;

/**
 * Owners the engine itself puts on tokens. A runnable job owned by one of them is held, not
 * running: a worker name may not be one of these.
 */
public final class Owners {
  /** A failed job waiting for its retry delay; the lease ends when it may run again. */
  public static final String RETRY_DELAY = "retry-delay";

  /** A claimed job whose instance is drained (at any scope); held until undrained. */
  public static final String DRAINED = "drained";

  /**
   * A claimed job whose instance is aborted (at any scope); held until the instance is archived.
   */
  public static final String ABORTED = "aborted";

  /** A job of a paused instance (control operations). */
  public static final String PAUSED = "paused";

  /** A finished instance's archive token until it is due. */
  public static final String ARCHIVE_DELAY = "archive-delay";

  /** The lease the archiver takes on a due archive token while it archives the instance. */
  public static final String ARCHIVER = "archiver";

  public static final Set<String> RESERVED =
      Set.of(RETRY_DELAY, DRAINED, ABORTED, PAUSED, ARCHIVE_DELAY, ARCHIVER);

  /** A lease that never ends. */
  public static final long FOREVER = Long.MAX_VALUE;

  private Owners() {}

  public static boolean isHold(String owner) {
    return owner != null && RESERVED.contains(owner);
  }
}
