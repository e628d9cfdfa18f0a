package dev.flipper.launcher.queuetool;

import dev.flipper.queue.CountParams;
import dev.flipper.queue.JobState;
import dev.flipper.queue.client.QueueClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The job counts of one queue, per priority and state, each split into due jobs (run-after reached)
 * and future jobs: what {@code --mode count} prints as one table. Immutable.
 */
record CountTable(String queue, JobState onlyState, List<Row> rows) {
  /** Counts of one priority: {@code due[state.code()]} and {@code future[state.code()]}. */
  record Row(int priority, int[] due, int[] future) {}

  private static final JobState[] STATES = JobState.values();

  static CountTable query(
      QueueClient client,
      String queue,
      List<Integer> priorities,
      JobState onlyState,
      String bodyRegex) {
    List<Row> rows = new ArrayList<>();
    for (int priority : priorities) {
      int[] due = new int[STATES.length];
      int[] future = new int[STATES.length];
      for (JobState state : STATES) {
        if (onlyState == null || onlyState == state) {
          due[state.code()] =
              client.count(new CountParams(queue, state, priority, false, bodyRegex));
          future[state.code()] =
              client.count(new CountParams(queue, state, priority, true, bodyRegex));
        }
      }
      rows.add(new Row(priority, due, future));
    }
    return new CountTable(queue, onlyState, rows);
  }

  /**
   * Columns: each counted state's due jobs, then "(+N later)" when some of them run in the future;
   * a total row.
   */
  String text() {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-9s", "priority"));
    for (JobState state : counted()) {
      out.append(String.format(Locale.ROOT, "%22s", state.name()));
    }
    out.append('\n');
    int[] dueTotal = new int[STATES.length];
    int[] futureTotal = new int[STATES.length];
    for (Row row : rows) {
      out.append(line(String.valueOf(row.priority()), row.due(), row.future()));
      for (int i = 0; i < STATES.length; i++) {
        dueTotal[i] += row.due()[i];
        futureTotal[i] += row.future()[i];
      }
    }
    out.append(line("all", dueTotal, futureTotal));
    out.append("(due jobs; \"+N later\" = jobs whose run-after is in the future)\n");
    return out.toString();
  }

  private List<JobState> counted() {
    return onlyState == null ? List.of(STATES) : List.of(onlyState);
  }

  private String line(String label, int[] due, int[] future) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-9s", label));
    for (JobState state : counted()) {
      int i = state.code();
      String cell =
          future[i] == 0 ? String.valueOf(due[i]) : due[i] + " (+" + future[i] + " later)";
      out.append(String.format(Locale.ROOT, "%22s", cell));
    }
    return out.append('\n').toString();
  }

  /**
   * For {@code --json}: {queue, counts: [{priority, state, due, future}, ...]}, only the states
   * counted.
   */
  Map<String, Object> json() {
    List<Object> counts = new ArrayList<>();
    for (Row row : rows) {
      for (JobState state : counted()) {
        Map<String, Object> cell = new LinkedHashMap<>();
        cell.put("priority", row.priority());
        cell.put("state", state.name());
        cell.put("due", row.due()[state.code()]);
        cell.put("future", row.future()[state.code()]);
        counts.add(cell);
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("queue", queue);
    result.put("counts", counts);
    return result;
  }
}
