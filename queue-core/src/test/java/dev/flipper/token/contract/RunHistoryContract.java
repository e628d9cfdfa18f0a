package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.history.RunSort;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenMaster;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * archive with a run, queryRuns, queryExecutions, deleteRun: the run history written with the
 * archive and read in filtered, sorted pages (docs/tokens.md, "Run history").
 */
abstract class RunHistoryContract extends TokenContractArea {
  /** A start time in epoch milliseconds, not on a whole second. */
  static final long T = 1_710_072_000_123L;

  static final long MINUTE = 60_000;

  // ---- writing ----

  @Test
  void archivingWithARunRecordsTheRunAndItsExecutions() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("z_first", "1");
    params.put("date", "2024-03-10");
    params.put("quote\"back\\slash", "line\nbreak, comma=equals; ünïcödé 😀");
    params.put("empty", "");
    RunRecord run =
        new RunRecord(
            "wf", "i1", "FAILURE", "scheduler", T, T + 5 * MINUTE, params, List.of("b", "a"));
    ExecutionRecord a =
        new ExecutionRecord(
            "wf",
            "i1",
            "a",
            1,
            1,
            "SUCCESS",
            T,
            T + MINUTE,
            0,
            "worker-1",
            "host-1",
            null,
            logs("stdout", "http://host-1:9000/logs/a/1/stdout", "stderr", "http://h/\"x\""));
    ExecutionRecord b =
        new ExecutionRecord(
            "wf", "i1", "b", 2, 1, "FAILURE", T + MINUTE, null, null, "", "", "lease lost", null);

    List<Token> tokens = archiveWithRun(run, a, b);

    assertThat(under("/workflow/wf/i1/")).isEmpty();
    assertThat(fx().store().queryArchived("/workflow/wf/i1/"))
        .containsExactlyInAnyOrderElementsOf(tokens);
    RunPage page = master().queryRuns(RunQuery.latest("wf", 10));
    assertThat(page.total()).isEqualTo(1);
    assertThat(page.runs()).containsExactly(run);
    assertThat(page.runs().get(0).params().keySet()).containsExactlyElementsOf(params.keySet());
    assertThat(page.runs().get(0).failedJobs()).containsExactly("b", "a");
    ExecutionPage executions =
        master().queryExecutions(ExecutionQuery.ofInstances("wf", List.of("i1"), 10));
    assertThat(executions.executions()).containsExactly(b, a);
    assertThat(executions.executions().get(1).logs().keySet()).containsExactly("stdout", "stderr");
    assertThat(executions.total()).isEqualTo(2);
  }

  @Test
  void archivingTheSameInstanceAgainReplacesItsRunAndAllItsExecutions() {
    archiveWithRun(
        run("wf", "i1", "FAILURE", T, T + MINUTE),
        execution("wf", "i1", "a", 1, "FAILURE", T),
        execution("wf", "i1", "b", 1, "SUCCESS", T));
    archiveWithRun(
        run("wf", "other", "SUCCESS", T, T + MINUTE),
        execution("wf", "other", "a", 1, "SUCCESS", T));

    RunRecord retried = run("wf", "i1", "SUCCESS", T + 10 * MINUTE, T + 12 * MINUTE);
    ExecutionRecord again = execution("wf", "i1", "a", 2, "SUCCESS", T + 10 * MINUTE);
    archiveWithRun(retried, again);

    assertThat(master().queryRuns(query().workflow("wf").build()).runs())
        .containsExactly(retried, run("wf", "other", "SUCCESS", T, T + MINUTE));
    assertThat(
            master()
                .queryExecutions(ExecutionQuery.ofInstances("wf", List.of("i1"), 10))
                .executions())
        .containsExactly(again);
    assertThat(
            master()
                .queryExecutions(ExecutionQuery.ofInstances("wf", List.of("other"), 10))
                .total())
        .isEqualTo(1);
  }

  @Test
  void anArchiveThatFailsRecordsNoRun() {
    Token stale = insert("/workflow/wf/i1/job/a", "a");
    update(stale.withData("changed"));
    RunArchive first =
        new RunArchive(
            run("wf", "i1", "SUCCESS", T, T + 1),
            List.of(execution("wf", "i1", "a", 1, "SUCCESS", T)));

    assertFails(
        TokenErrorCode.VERSION_CONFLICT,
        () -> master().archive(List.of(stale), first),
        "'/workflow/wf/i1/job/a'");
    assertFails(
        TokenErrorCode.NOT_FOUND,
        () ->
            master().archive(List.of(Token.of("/workflow/wf/i2/job/a", "").withVersion(7)), first),
        "'/workflow/wf/i2/job/a'");

    assertThat(master().queryRuns(query().build()).total()).isZero();
    assertThat(master().queryExecutions(ExecutionQuery.ofJob("wf", "a", 10)).total()).isZero();
    assertThat(fx().store().queryArchived("")).isEmpty();
  }

  @Test
  void aFailedReArchiveKeepsTheEarlierRecord() {
    RunRecord first = run("wf", "i1", "FAILURE", T, T + 1);
    ExecutionRecord execution = execution("wf", "i1", "a", 1, "FAILURE", T);
    archiveWithRun(first, execution);
    Token stale = insert("/workflow/wf/i1/job/a", "again");
    update(stale.withData("changed"));

    assertFails(
        TokenErrorCode.VERSION_CONFLICT,
        () ->
            master()
                .archive(
                    List.of(stale),
                    new RunArchive(run("wf", "i1", "SUCCESS", T, T + 2), List.of())));

    assertThat(master().queryRuns(query().build()).runs()).containsExactly(first);
    assertThat(master().queryExecutions(ExecutionQuery.ofJob("wf", "a", 10)).executions())
        .containsExactly(execution);
  }

  @Test
  void aRunArchivedWithoutTokensIsRecorded() {
    RunRecord run = run("wf", "i1", "ABORTED", T, null);

    master().archive(List.of(), new RunArchive(run, List.of()));

    assertThat(master().queryRuns(query().build()).runs()).containsExactly(run);
  }

  // ---- reading runs ----

  /** Eight runs over two workflows, each filter picking a different subset. */
  void archiveSample() {
    archiveWithRun(
        new RunRecord(
            "wf",
            "r1",
            "SUCCESS",
            "scheduler",
            T,
            T + 3 * MINUTE,
            Map.of("date", "2024-03-10"),
            null));
    archiveWithRun(
        new RunRecord(
            "wf",
            "r2",
            "FAILURE",
            "scheduler",
            T + MINUTE,
            T + 2 * MINUTE,
            Map.of("date", "2024-03-11"),
            List.of("a")));
    archiveWithRun(
        new RunRecord(
            "wf",
            "r3",
            "SUCCESS",
            "ui",
            T + 2 * MINUTE,
            T + 10 * MINUTE,
            Map.of("Region", "EU-West"),
            null));
    archiveWithRun(
        new RunRecord("wf", "r4", "ABORTED", "cli", T + 3 * MINUTE, null, Map.of(), null));
    archiveWithRun(
        new RunRecord(
            "wf",
            "Backfill-7",
            "SUCCESS",
            "backfill",
            T + 4 * MINUTE,
            T + 5 * MINUTE,
            Map.of("date", "2024-01-01"),
            null));
    archiveWithRun(
        new RunRecord("other", "r1", "SUCCESS", "scheduler", T, T + MINUTE, Map.of(), null));
    archiveWithRun(
        new RunRecord(
            "other",
            "r9",
            "FAILURE",
            "ui",
            T + 5 * MINUTE,
            T + 7 * MINUTE,
            Map.of("owner", "UI-team"),
            null));
    archiveWithRun(
        new RunRecord(
            "other", "r0", "SUCCESS", "retry", T + 4 * MINUTE, T + 5 * MINUTE, Map.of(), null));
  }

  @Test
  void runsAreFilteredByWorkflowStatusTriggerAndStart() {
    archiveSample();

    assertThat(instances(query().workflow("wf")))
        .containsExactly("wf/Backfill-7", "wf/r4", "wf/r3", "wf/r2", "wf/r1");
    assertThat(instances(query().statuses("FAILURE", "ABORTED")))
        .containsExactly("other/r9", "wf/r4", "wf/r2");
    assertThat(instances(query().startedBy("ui", "cli")))
        .containsExactly("other/r9", "wf/r4", "wf/r3");
    assertThat(instances(query().startFrom(T + 3 * MINUTE)))
        .containsExactly("other/r9", "other/r0", "wf/Backfill-7", "wf/r4");
    assertThat(instances(query().startBefore(T + MINUTE))).containsExactly("other/r1", "wf/r1");
    assertThat(instances(query().startFrom(T + MINUTE).startBefore(T + 3 * MINUTE)))
        .containsExactly("wf/r3", "wf/r2");
    assertThat(instances(query().startFrom(T + MINUTE).startBefore(T + MINUTE))).isEmpty();
    assertThat(instances(query().statuses("NO_SUCH_STATUS"))).isEmpty();
  }

  @Test
  void runFiltersCombine() {
    archiveSample();

    assertThat(
            instances(
                query().workflow("wf").statuses("SUCCESS").startedBy("scheduler", "backfill")))
        .containsExactly("wf/Backfill-7", "wf/r1");
    assertThat(instances(query().workflow("other").statuses("SUCCESS").startFrom(T + MINUTE)))
        .containsExactly("other/r0");
    assertThat(
            instances(
                query()
                    .statuses("SUCCESS", "FAILURE")
                    .startedBy("scheduler")
                    .text("2024-03")
                    .startBefore(T + MINUTE)))
        .containsExactly("wf/r1");
    assertThat(instances(query().workflow("wf").text("r").sort(RunSort.OLDEST).startedBy("ui")))
        .containsExactly("wf/r3");
  }

  @Test
  void textSearchesInstanceTriggerAndParametersIgnoringCase() {
    archiveSample();

    assertThat(instances(query().text("BACKFILL"))).containsExactly("wf/Backfill-7");
    assertThat(instances(query().text("ui"))).containsExactly("other/r9", "wf/r3");
    assertThat(instances(query().text("region=eu"))).containsExactly("wf/r3");
    assertThat(instances(query().text("eu-WEST"))).containsExactly("wf/r3");
    assertThat(instances(query().text("date=2024-03-1"))).containsExactly("wf/r2", "wf/r1");
    assertThat(instances(query().text("  owner=ui-team  "))).containsExactly("other/r9");
    assertThat(instances(query().text("retry"))).containsExactly("other/r0");
    assertThat(instances(query().text("r1"))).containsExactly("other/r1", "wf/r1");
    assertThat(instances(query().text("nothing matches this"))).isEmpty();
    assertThat(instances(query().text("   "))).hasSize(8); // blank: no filter
  }

  @Test
  void textSearchesPageAndCountLikeOtherFilters() {
    archiveSample(); // "r" is in every instance named r*, and in the triggers scheduler and retry

    RunPage page = master().queryRuns(query().text("R").offset(1).limit(2).build());
    RunPage beyond = master().queryRuns(query().text("r").offset(50).limit(2).build());
    RunPage inRange =
        master()
            .queryRuns(query().text("2024-03").startFrom(T + MINUTE).sort(RunSort.LONGEST).build());

    assertThat(page.runs()).extracting(RunRecord::instance).containsExactly("r0", "r4");
    assertThat(page.total()).isEqualTo(7);
    assertThat(beyond.runs()).isEmpty();
    assertThat(beyond.total()).isEqualTo(7);
    assertThat(inRange.runs()).extracting(RunRecord::instance).containsExactly("r2");
    assertThat(inRange.total()).isEqualTo(1);
  }

  @Test
  void textSearchTakesWildcardsAndQuotesLiterally() {
    archiveWithRun(
        new RunRecord(
            "wf", "100%_done", "ui", "cli", T, T + 1, Map.of("path", "C:\\tmp\\x"), null));
    archiveWithRun(
        new RunRecord(
            "wf", "100-and-done", "ui", "cli", T + 1, T + 2, Map.of("q", "it's \"quoted\""), null));

    assertThat(instances(query().text("%"))).containsExactly("wf/100%_done");
    assertThat(instances(query().text("0%_d"))).containsExactly("wf/100%_done");
    assertThat(instances(query().text("_"))).containsExactly("wf/100%_done");
    assertThat(instances(query().text("100_"))).isEmpty();
    assertThat(instances(query().text("\\tmp\\"))).containsExactly("wf/100%_done");
    assertThat(instances(query().text("\\"))).containsExactly("wf/100%_done");
    assertThat(instances(query().text("it's \"q"))).containsExactly("wf/100-and-done");
    assertThat(instances(query().text("'; drop table x; --"))).isEmpty();
  }

  @Test
  void runsSortNewestOldestLongestShortestWithTiesByWorkflowThenInstance() {
    archiveSample();

    assertThat(instances(query().sort(RunSort.NEWEST)))
        .containsExactly(
            "other/r9",
            "other/r0",
            "wf/Backfill-7",
            "wf/r4",
            "wf/r3",
            "wf/r2",
            "other/r1",
            "wf/r1");
    assertThat(instances(query().sort(RunSort.OLDEST)))
        .containsExactly(
            "other/r1",
            "wf/r1",
            "wf/r2",
            "wf/r3",
            "wf/r4",
            "other/r0",
            "wf/Backfill-7",
            "other/r9");
    // durations: wf/r3 8m, wf/r1 3m, other/r9 2m; 1m: other/r0 other/r1 wf/Backfill-7 wf/r2; wf/r4
    // none
    assertThat(instances(query().sort(RunSort.LONGEST)))
        .containsExactly(
            "wf/r3",
            "wf/r1",
            "other/r9",
            "other/r0",
            "other/r1",
            "wf/Backfill-7",
            "wf/r2",
            "wf/r4");
    assertThat(instances(query().sort(RunSort.SHORTEST)))
        .containsExactly(
            "other/r0",
            "other/r1",
            "wf/Backfill-7",
            "wf/r2",
            "other/r9",
            "wf/r1",
            "wf/r3",
            "wf/r4");
    assertThat(instances(query().workflow("wf").sort(RunSort.SHORTEST)))
        .containsExactly("wf/Backfill-7", "wf/r2", "wf/r1", "wf/r3", "wf/r4");
  }

  @Test
  void runsWithoutAnEndComeLastInBothDurationOrders() {
    archiveWithRun(run("wf", "open-b", "RUNNING", T, null));
    archiveWithRun(run("wf", "open-a", "RUNNING", T + 5, null));
    archiveWithRun(run("wf", "zero", "SUCCESS", T, T));
    archiveWithRun(run("wf", "long", "SUCCESS", T, T + 99 * MINUTE));

    assertThat(instances(query().sort(RunSort.LONGEST)))
        .containsExactly("wf/long", "wf/zero", "wf/open-a", "wf/open-b");
    assertThat(instances(query().sort(RunSort.SHORTEST)))
        .containsExactly("wf/zero", "wf/long", "wf/open-a", "wf/open-b");
  }

  @Test
  void runPagesFollowOffsetAndLimitAndCountEveryMatch() {
    for (int i = 0; i < 25; i++) {
      archiveWithRun(
          run("wf", String.format("i%02d", i), i % 5 == 0 ? "FAILURE" : "SUCCESS", T + i, T + 100));
    }
    archiveWithRun(run("elsewhere", "x", "SUCCESS", T + 1000, T + 2000));

    RunPage first = master().queryRuns(query().workflow("wf").limit(10).build());
    RunPage third = master().queryRuns(query().workflow("wf").offset(20).limit(10).build());
    RunPage beyond = master().queryRuns(query().workflow("wf").offset(30).limit(10).build());
    RunPage failures =
        master().queryRuns(query().workflow("wf").statuses("FAILURE").offset(1).limit(2).build());

    assertThat(first.total()).isEqualTo(25);
    assertThat(first.runs())
        .extracting(RunRecord::instance)
        .containsExactly("i24", "i23", "i22", "i21", "i20", "i19", "i18", "i17", "i16", "i15");
    assertThat(third.runs())
        .extracting(RunRecord::instance)
        .containsExactly("i04", "i03", "i02", "i01", "i00");
    assertThat(third.total()).isEqualTo(25);
    assertThat(beyond.runs()).isEmpty();
    assertThat(beyond.total()).isEqualTo(25);
    assertThat(failures.runs()).extracting(RunRecord::instance).containsExactly("i15", "i10");
    assertThat(failures.total()).isEqualTo(5);
    List<String> paged = new ArrayList<>();
    for (int offset = 0; offset < 26; offset += 4) {
      paged.addAll(instances(query().sort(RunSort.SHORTEST).offset(offset).limit(4)));
    }
    assertThat(paged).hasSize(26).doesNotHaveDuplicates();
  }

  // ---- reading executions ----

  /** Three instances of wf, one of another workflow with the same job names. */
  void archiveExecutions() {
    archiveWithRun(
        run("wf", "i1", "FAILURE", T, T + 9),
        execution("wf", "i1", "extract", 1, "SUCCESS", T),
        execution("wf", "i1", "load", 1, "FAILURE", T + 10),
        execution("wf", "i1", "load", 2, "FAILURE", T + 20));
    archiveWithRun(
        run("wf", "i2", "SUCCESS", T, T + 9),
        execution("wf", "i2", "extract", 1, "SUCCESS", T + 30),
        execution("wf", "i2", "load", 1, "SUCCESS", T + 40));
    archiveWithRun(
        run("wf", "i0", "SUCCESS", T, T + 9),
        execution("wf", "i0", "extract", 1, "SUCCESS", T + 30),
        execution("wf", "i0", "load", 1, "SUCCESS", T + 40));
    archiveWithRun(
        run("elsewhere", "i1", "SUCCESS", T, T + 9),
        execution("elsewhere", "i1", "load", 1, "SUCCESS", T + 99));
  }

  @Test
  void executionsOfAJobAcrossInstancesAreNewestFirstWithTiesByInstance() {
    archiveExecutions();

    assertThat(labels(ExecutionQuery.ofJob("wf", "load", 10)))
        .containsExactly("i0/load#1", "i2/load#1", "i1/load#2", "i1/load#1");
    assertThat(labels(ExecutionQuery.ofJob("wf", "extract", 10)))
        .containsExactly("i0/extract#1", "i2/extract#1", "i1/extract#1");
    assertThat(labels(ExecutionQuery.ofJob("wf", "no-such-job", 10))).isEmpty();
    assertThat(labels(ExecutionQuery.ofJob("nowhere", "load", 10))).isEmpty();
  }

  @Test
  void executionsOfNamedInstancesAreNewestFirst() {
    archiveExecutions();

    assertThat(labels(ExecutionQuery.ofInstances("wf", List.of("i1"), 10)))
        .containsExactly("i1/load#2", "i1/load#1", "i1/extract#1");
    assertThat(labels(ExecutionQuery.ofInstances("wf", List.of("i2", "i0", "missing"), 10)))
        .containsExactly("i0/load#1", "i2/load#1", "i0/extract#1", "i2/extract#1");
  }

  @Test
  void executionsTieByInstanceJobAndExecutionAtTheSameStart() {
    archiveWithRun(
        run("wf", "i2", "SUCCESS", T, T + 9), execution("wf", "i2", "a", 1, "SUCCESS", T));
    archiveWithRun(
        run("wf", "i1", "SUCCESS", T, T + 9),
        execution("wf", "i1", "b", 2, "SUCCESS", T),
        execution("wf", "i1", "b", 1, "FAILURE", T),
        execution("wf", "i1", "a", 1, "SUCCESS", T));

    assertThat(labels(new ExecutionQuery("wf", null, null, null, 0, 10)))
        .containsExactly("i1/a#1", "i1/b#1", "i1/b#2", "i2/a#1");
  }

  @Test
  void executionFiltersCombineAndPage() {
    archiveExecutions();

    assertThat(labels(new ExecutionQuery("wf", "load", null, Set.of("FAILURE"), 0, 10)))
        .containsExactly("i1/load#2", "i1/load#1");
    assertThat(
            labels(new ExecutionQuery("wf", null, List.of("i1", "i2"), Set.of("SUCCESS"), 0, 10)))
        .containsExactly("i2/load#1", "i2/extract#1", "i1/extract#1");
    assertThat(
            labels(
                new ExecutionQuery(
                    "wf", "extract", List.of("i1"), Set.of("SUCCESS", "FAILURE"), 0, 10)))
        .containsExactly("i1/extract#1");

    ExecutionPage page = master().queryExecutions(new ExecutionQuery("wf", null, null, null, 2, 3));
    assertThat(page.total()).isEqualTo(7);
    assertThat(page.executions())
        .extracting(RunHistoryContract::label)
        .containsExactly("i0/extract#1", "i2/extract#1", "i1/load#2");
    ExecutionPage beyond =
        master().queryExecutions(new ExecutionQuery("wf", "load", null, null, 4, 3));
    assertThat(beyond.executions()).isEmpty();
    assertThat(beyond.total()).isEqualTo(4);
  }

  // ---- deleting ----

  @Test
  void deleteRunRemovesTheRunAndItsExecutionsOnly() {
    archiveExecutions();

    assertThat(master().deleteRun("wf", "i1")).isEqualTo(4);
    assertThat(master().deleteRun("wf", "i1")).isZero();
    assertThat(master().deleteRun("wf", "never")).isZero();

    assertThat(instances(query())).containsExactly("elsewhere/i1", "wf/i0", "wf/i2");
    assertThat(labels(ExecutionQuery.ofJob("wf", "load", 10)))
        .containsExactly("i0/load#1", "i2/load#1");
    assertThat(labels(ExecutionQuery.ofJob("elsewhere", "load", 10))).containsExactly("i1/load#1");
  }

  // ---- concurrency ----

  @Test
  void manyThreadsArchivingDifferentInstancesLoseNothing() throws Exception {
    List<TokenMaster> masters = List.of(master(), fx().anotherMaster(), fx().anotherMaster());
    int perThread = 10;
    ConcurrencyContract.runThreads(
        thread -> {
          TokenMaster master = masters.get(thread % masters.size());
          for (int i = 0; i < perThread; i++) {
            String instance = "t" + thread + "-" + i;
            Token token =
                master
                    .modify(
                        ModifyParams.updating(Token.of("/workflow/wf/" + instance + "/job/a", "")))
                    .get(0);
            master.archive(
                List.of(token),
                new RunArchive(
                    run("wf", instance, "SUCCESS", T + i, T + i + thread),
                    List.of(
                        execution("wf", instance, "a", 1, "SUCCESS", T + i),
                        execution("wf", instance, "a", 2, "SUCCESS", T + i + 1))));
          }
          return List.of();
        });

    int runs = ConcurrencyContract.THREADS * perThread;
    assertThat(master().queryRuns(query().workflow("wf").limit(1000).build()).runs()).hasSize(runs);
    assertThat(master().queryExecutions(new ExecutionQuery("wf", "a", null, null, 0, 1000)).total())
        .isEqualTo(2L * runs);
    assertThat(fx().store().queryArchived("/workflow/wf/")).hasSize(runs);
    assertThat(all()).isEmpty();
  }

  // ---- helpers ----

  /**
   * Inserts a token for each execution (or one) under the run's instance and archives them with the
   * run.
   */
  List<Token> archiveWithRun(RunRecord run, ExecutionRecord... executions) {
    String prefix = "/workflow/" + run.workflow() + "/" + run.instance() + "/job/";
    List<Token> tokens = new ArrayList<>();
    tokens.add(Token.of(prefix + "waiting/first", "data"));
    for (ExecutionRecord e : executions) {
      tokens.add(Token.of(prefix + "done/" + e.job() + "/" + e.execution(), "data"));
    }
    List<Token> written = insert(tokens.toArray(Token[]::new));
    master().archive(written, new RunArchive(run, List.of(executions)));
    return written;
  }

  static RunRecord run(String workflow, String instance, String status, long start, Long end) {
    return new RunRecord(workflow, instance, status, "scheduler", start, end, Map.of(), List.of());
  }

  static ExecutionRecord execution(
      String workflow, String instance, String job, int execution, String status, long start) {
    return new ExecutionRecord(
        workflow,
        instance,
        job,
        execution,
        1,
        status,
        start,
        start + 1000,
        status.equals("SUCCESS") ? 0 : 1,
        "worker",
        "host",
        null,
        logs("stdout", "http://host/" + instance + "/" + job + "/" + execution));
  }

  static Map<String, String> logs(String... nameThenUrl) {
    Map<String, String> logs = new LinkedHashMap<>();
    for (int i = 0; i < nameThenUrl.length; i += 2) {
      logs.put(nameThenUrl[i], nameThenUrl[i + 1]);
    }
    return logs;
  }

  List<String> instances(RunQueryBuilder query) {
    return master().queryRuns(query.build()).runs().stream()
        .map(r -> r.workflow() + "/" + r.instance())
        .toList();
  }

  List<String> labels(ExecutionQuery query) {
    return master().queryExecutions(query).executions().stream()
        .map(RunHistoryContract::label)
        .toList();
  }

  static String label(ExecutionRecord e) {
    return e.instance() + "/" + e.job() + "#" + e.execution();
  }

  static RunQueryBuilder query() {
    return new RunQueryBuilder();
  }

  /** Builds a {@link RunQuery} naming only what a test sets; newest first, a page of 100. */
  static final class RunQueryBuilder {
    private String workflow;
    private Set<String> statuses;
    private Set<String> startedBy;
    private Long startFrom;
    private Long startBefore;
    private String text;
    private RunSort sort;
    private int offset;
    private int limit = 100;

    RunQueryBuilder workflow(String value) {
      workflow = value;
      return this;
    }

    RunQueryBuilder statuses(String... values) {
      statuses = Set.of(values);
      return this;
    }

    RunQueryBuilder startedBy(String... values) {
      startedBy = Set.of(values);
      return this;
    }

    RunQueryBuilder startFrom(long value) {
      startFrom = value;
      return this;
    }

    RunQueryBuilder startBefore(long value) {
      startBefore = value;
      return this;
    }

    RunQueryBuilder text(String value) {
      text = value;
      return this;
    }

    RunQueryBuilder sort(RunSort value) {
      sort = value;
      return this;
    }

    RunQueryBuilder offset(int value) {
      offset = value;
      return this;
    }

    RunQueryBuilder limit(int value) {
      limit = value;
      return this;
    }

    RunQuery build() {
      return new RunQuery(
          workflow, statuses, startedBy, startFrom, startBefore, text, sort, offset, limit);
    }
  }
}
