package dev.flipper.bench;

import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The archived runs {@code flipper bench ui} records in the run history: run {@code i} of {@code
 * count}, the same for the same {@code i} whichever thread asks. Nine in ten belong to the first
 * workflow, so that its runs list pages deep (page 1,800 of 50 needs 90,000 runs); the rest are
 * spread round-robin over the others. Starts are spread evenly over {@link #SPAN} before {@code
 * end} (a run's instance id is its start in epoch ms, as the engine names instances, and unique);
 * 80% SUCCESS, 15% FAILURE, 5% ABORTED; each run has {@link #EXECUTIONS_PER_RUN} executions of
 * {@code root}, {@code job-1} to {@code job-8} and {@code join} (a failed or aborted run has two
 * attempts of the job that broke and no {@code join}). Immutable.
 */
final class ArchivedRuns {
  static final Duration SPAN = Duration.ofDays(90);
  static final int EXECUTIONS_PER_RUN = 10;
  static final List<String> TRIGGERS = List.of("scheduler", "cli", "ui", "backfill", "retry");

  /** Jobs running in parallel between root and join, as in the bench workflows. */
  private static final int MIDDLE_JOBS = 8;

  private final List<String> workflows;
  private final int count;
  private final long firstStartMillis;
  private final long stepMillis;

  /**
   * @param workflows the workflows' names, the first one taking nine runs in ten
   * @param end every run ends before it
   */
  ArchivedRuns(List<String> workflows, int count, Instant end) {
    this.workflows = List.copyOf(workflows);
    this.count = count;
    this.stepMillis = Math.max(1, SPAN.toMillis() / Math.max(1, count));
    this.firstStartMillis = end.toEpochMilli() - Duration.ofDays(1).toMillis() - SPAN.toMillis();
  }

  int count() {
    return count;
  }

  String workflow(int i) {
    if (workflows.size() == 1 || i % 10 < 9) {
      return workflows.get(0);
    }
    return workflows.get(1 + (i / 10) % (workflows.size() - 1));
  }

  /** How many of the runs belong to the first workflow. */
  int runsOfFirstWorkflow() {
    int n = 0;
    for (int i = 0; i < count; i++) {
      n += workflow(i).equals(workflows.get(0)) ? 1 : 0;
    }
    return n;
  }

  /** Run {@code i} (0 to count - 1) with its executions. */
  RunArchive run(int i) {
    SplittableRandom random = new SplittableRandom(0x5EED_0000L + i);
    String workflow = workflow(i);
    long start = firstStartMillis + i * stepMillis;
    String instance = Long.toString(start);
    // 1 minute to a few hours, most runs short, as batch jobs go.
    long duration = 60_000 + (long) (-Math.log(1 - random.nextDouble()) * 15 * 60_000);
    int roll = random.nextInt(100);
    String status = roll < 80 ? "SUCCESS" : roll < 95 ? "FAILURE" : "ABORTED";
    int broken = status.equals("SUCCESS") ? 0 : 1 + random.nextInt(MIDDLE_JOBS);
    long slot = duration / 10;

    List<ExecutionRecord> executions = new ArrayList<>();
    executions.add(
        execution(workflow, instance, "root", 1, "SUCCESS", start, start + slot, 0, random));
    for (int j = 1; j <= MIDDLE_JOBS; j++) {
      long jobStart = start + slot + random.nextLong(slot);
      long jobEnd = jobStart + slot + random.nextLong(slot * 6);
      if (j != broken) {
        executions.add(
            execution(workflow, instance, "job-" + j, 1, "SUCCESS", jobStart, jobEnd, 0, random));
        continue;
      }
      long retry = jobStart + (jobEnd - jobStart) / 2;
      executions.add(
          execution(workflow, instance, "job-" + j, 1, "FAILURE", jobStart, retry, 1, random));
      executions.add(
          status.equals("FAILURE")
              ? execution(workflow, instance, "job-" + j, 2, "FAILURE", retry, jobEnd, 1, random)
              : execution(
                  workflow, instance, "job-" + j, 2, "ABORTED", retry, jobEnd, null, random));
    }
    if (broken == 0) {
      executions.add(
          execution(
              workflow,
              instance,
              "join",
              1,
              "SUCCESS",
              start + 9 * slot,
              start + duration,
              0,
              random));
    }
    Map<String, String> params = new LinkedHashMap<>();
    params.put("date", Instant.ofEpochMilli(start).atZone(ZoneOffset.UTC).toLocalDate().toString());
    params.put("region", "eu-" + random.nextInt(10));
    params.put("batch", Integer.toString(random.nextInt(1000)));
    RunRecord run =
        new RunRecord(
            workflow,
            instance,
            status,
            TRIGGERS.get(random.nextInt(TRIGGERS.size())),
            start,
            start + duration,
            params,
            broken == 0 ? List.of() : List.of("job-" + broken));
    return new RunArchive(run, executions);
  }

  private static ExecutionRecord execution(
      String workflow,
      String instance,
      String job,
      int attempt,
      String status,
      long start,
      long end,
      Integer exitCode,
      SplittableRandom random) {
    String host = "bench-host-" + random.nextInt(20);
    return new ExecutionRecord(
        workflow,
        instance,
        job,
        attempt,
        attempt,
        status,
        start,
        end,
        exitCode,
        host + "-1-x",
        host,
        status.equals("ABORTED") ? "aborted" : null,
        Map.of(
            "stdout",
            "http://" + host + ":9093/logs/" + workflow + "/" + instance + "/" + job + ".stdout"));
  }
}
