package dev.flipper.queue;

/**
 * Arguments of {@link QueueService#scan}. Results are ordered by run-after, newest first. To page,
 * pass the continuation of the previous page; {@link #START} begins a scan.
 *
 * @param priority one priority, or null for all
 * @param future scan jobs whose run-after is in the future instead of those due now
 * @param limit the most jobs per page, > 0
 * @param bodyRegex a Java regular expression searched (unanchored) in the UTF-8 body; null for no
 *     filter
 */
public record ScanParams(
    String queue,
    JobState state,
    Integer priority,
    boolean future,
    String continuation,
    int limit,
    String bodyRegex) {
  public static final String START = "0";
  public static final String END = "-1";
  public static final int DEFAULT_LIMIT = 100;

  public ScanParams {
    continuation = continuation == null ? START : continuation;
  }

  public static ScanParams of(String queue, JobState state) {
    return new ScanParams(queue, state, null, false, START, DEFAULT_LIMIT, null);
  }
}
