package dev.flipper.queue;

/**
 * Arguments of {@link QueueService#deleteJobs}: delete up to {@code limit} jobs of one state and
 * priority, optionally only those whose body matches {@code bodyRegex} (a Java regular expression,
 * unanchored).
 */
public record DeleteJobsParams(
    String queue, JobState state, int priority, String bodyRegex, int limit) {
  public static DeleteJobsParams of(String queue, JobState state) {
    return new DeleteJobsParams(queue, state, 1, null, 1000);
  }
}
