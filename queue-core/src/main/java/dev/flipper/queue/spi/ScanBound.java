package dev.flipper.queue.spi;

/**
 * A position in scan order (run-after descending, then local id descending): a scan returns the
 * jobs that come strictly after it. {@link #START} comes before every job.
 */
public record ScanBound(long runAfterMillis, long localId) {
  public static final ScanBound START = new ScanBound(Long.MAX_VALUE, Long.MAX_VALUE);

  /** True if a job at (runAfter, localId) sorts strictly after this bound. */
  public boolean admits(long runAfter, long id) {
    return runAfter < runAfterMillis || (runAfter == runAfterMillis && id < localId);
  }
}
