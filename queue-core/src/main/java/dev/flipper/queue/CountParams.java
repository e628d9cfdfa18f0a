package dev.flipper.queue;

/**
 * Arguments of {@link QueueService#count}.
 *
 * @param priority one priority, or null for all
 * @param future count jobs whose run-after is in the future instead of those due now
 * @param bodyRegex a Java regular expression searched (unanchored) in the UTF-8 body; null for no
 *     filter
 */
public record CountParams(
    String queue, JobState state, Integer priority, boolean future, String bodyRegex) {
  public static CountParams of(String queue, JobState state) {
    return new CountParams(queue, state, null, false, null);
  }
}
