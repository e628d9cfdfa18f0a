package dev.flipper.workflow.control;

/**
 * One thing an operation would change, as its preview lists it before it runs. Immutable.
 *
 * @param subject a job name, or {@code instance} for the instance itself
 * @param from its status now ({@code FAILURE}, {@code RUNNING}, ...)
 * @param to what it becomes ({@code RUNNABLE}, {@code deleted}, ...)
 * @param why in plain words, e.g. {@code downstream of extract}
 */
public record PlannedChange(String subject, String from, String to, String why) {
  @Override
  public String toString() {
    return subject + " (" + from + " → " + to + (why.isEmpty() ? "" : ", " + why) + ")";
  }
}
