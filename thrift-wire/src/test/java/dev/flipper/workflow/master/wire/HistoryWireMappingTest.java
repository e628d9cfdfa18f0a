package dev.flipper.workflow.master.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.history.RunSort;
import dev.flipper.workflow.master.thrift.NamedValue;
import dev.flipper.workflow.master.thrift.QueryExecutionsRequest;
import dev.flipper.workflow.master.thrift.QueryExecutionsResponse;
import dev.flipper.workflow.master.thrift.QueryRunsRequest;
import dev.flipper.workflow.master.thrift.QueryRunsResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.thrift.TBase;
import org.apache.thrift.TDeserializer;
import org.apache.thrift.TException;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.junit.jupiter.api.Test;

/** Run history values survive the trip through their wire structs and the binary protocol. */
class HistoryWireMappingTest {

  private static final RunRecord RUN =
      new RunRecord(
          "etl",
          "20261128-1",
          "FAILURE",
          "scheduler",
          1_000L,
          5_000L,
          ordered("date", "2026-11-28", "région", "Zürich ☃", "empty", ""),
          List.of("load", "report"));

  private static final ExecutionRecord FINISHED =
      new ExecutionRecord(
          "etl",
          "20261128-1",
          "load",
          2,
          1,
          "FAILURE",
          2_000L,
          4_000L,
          3,
          "worker-1",
          "host-a",
          null,
          ordered("stdout", "http://host-a:9091/logs/1", "stderr", "http://host-a:9091/logs/2"));

  /** Nulls: no end, no exit code, no worker or host (""), an end reason, no logs. */
  private static final ExecutionRecord LEASE_LOST =
      new ExecutionRecord(
          "etl",
          "20261128-1",
          "extract",
          1,
          1,
          "ABORTED",
          1_500L,
          null,
          null,
          null,
          null,
          "lease lost",
          null);

  @Test
  void anArchiveWithUnicodeParamsAndAbsentFieldsRoundTrips() throws TException {
    RunArchive archive = new RunArchive(RUN, List.of(FINISHED, LEASE_LOST));

    RunArchive back =
        HistoryWireMapping.fromWire(
            overTheWire(
                HistoryWireMapping.toWire(archive),
                dev.flipper.workflow.master.thrift.RunArchive::new));

    assertThat(back).isEqualTo(archive);
    assertThat(back.run().params().keySet()).containsExactly("date", "région", "empty");
    assertThat(back.executions().get(0).logs().keySet()).containsExactly("stdout", "stderr");
    assertThat(back.executions().get(1).endMillis()).isNull();
    assertThat(back.executions().get(1).exitCode()).isNull();
  }

  @Test
  void aRunWithoutEndParamsOrFailedJobsRoundTrips() throws TException {
    RunRecord running = new RunRecord("etl", "2", "RUNNING", null, 7L, null, null, null);

    dev.flipper.workflow.master.thrift.RunRecord wire = HistoryWireMapping.toWire(running);
    RunRecord back =
        HistoryWireMapping.fromWire(
            overTheWire(wire, dev.flipper.workflow.master.thrift.RunRecord::new));

    assertThat(wire.isSetEndMillis()).isFalse();
    assertThat(back).isEqualTo(running);
    assertThat(back.params()).isEmpty();
    assertThat(back.failedJobs()).isEmpty();
    assertThat(back.startedBy()).isEmpty();
  }

  @Test
  void anExitCodeOfZeroIsSetAndAnAbsentOneIsNot() {
    ExecutionRecord success =
        new ExecutionRecord("etl", "1", "j", 1, 1, "SUCCESS", 1L, 2L, 0, "w", "h", null, Map.of());

    assertThat(HistoryWireMapping.toWire(success).isSetExitCode()).isTrue();
    assertThat(HistoryWireMapping.toWire(LEASE_LOST).isSetExitCode()).isFalse();
    assertThat(HistoryWireMapping.toWire(LEASE_LOST).isSetEndMillis()).isFalse();
  }

  @Test
  void aParamWithANullValueStaysNull() throws TException {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("flag", null);
    RunRecord run = new RunRecord("etl", "1", "SUCCESS", "cli", 1L, 2L, params, List.of());

    RunRecord back =
        HistoryWireMapping.fromWire(
            overTheWire(
                HistoryWireMapping.toWire(run), dev.flipper.workflow.master.thrift.RunRecord::new));

    assertThat(back.params()).containsEntry("flag", null);
  }

  @Test
  void aFullRunQueryRoundTrips() throws TException {
    RunQuery query =
        new RunQuery(
            "etl",
            Set.of("FAILURE", "ABORTED"),
            Set.of("scheduler"),
            100L,
            200L,
            "région=Zürich",
            RunSort.LONGEST,
            20,
            10);

    assertThat(
            HistoryWireMapping.fromWire(
                overTheWire(HistoryWireMapping.toWire(query), QueryRunsRequest::new)))
        .isEqualTo(query);
  }

  @Test
  void anOpenRunQueryLeavesItsFiltersUnset() throws TException {
    RunQuery query = RunQuery.latest(null, 5);

    QueryRunsRequest wire = HistoryWireMapping.toWire(query);

    assertThat(wire.isSetWorkflow() || wire.isSetStatuses() || wire.isSetStartFrom()).isFalse();
    assertThat(HistoryWireMapping.fromWire(overTheWire(wire, QueryRunsRequest::new)))
        .isEqualTo(query);
  }

  @Test
  void anEmptyRunRequestReadsAsTheNewestFullPage() {
    assertThat(HistoryWireMapping.fromWire(new QueryRunsRequest()))
        .isEqualTo(RunQuery.latest(null, RunQuery.MAX_LIMIT));
  }

  @Test
  void executionQueriesRoundTrip() throws TException {
    ExecutionQuery byJob = ExecutionQuery.ofJob("etl", "load", 50);
    ExecutionQuery byInstances =
        new ExecutionQuery("etl", null, List.of("3", "1", "2"), Set.of("FAILURE"), 5, 7);

    assertThat(
            HistoryWireMapping.fromWire(
                overTheWire(HistoryWireMapping.toWire(byJob), QueryExecutionsRequest::new)))
        .isEqualTo(byJob);
    ExecutionQuery back =
        HistoryWireMapping.fromWire(
            overTheWire(HistoryWireMapping.toWire(byInstances), QueryExecutionsRequest::new));
    assertThat(back).isEqualTo(byInstances);
    assertThat(back.instances()).containsExactly("3", "1", "2");
  }

  @Test
  void pagesRoundTripWithTheirTotals() throws TException {
    RunPage runs = new RunPage(List.of(RUN), 42);
    ExecutionPage executions = new ExecutionPage(List.of(FINISHED, LEASE_LOST), 2);
    ExecutionPage empty = new ExecutionPage(List.of(), 0);

    assertThat(
            HistoryWireMapping.fromWire(
                overTheWire(HistoryWireMapping.toWire(runs), QueryRunsResponse::new)))
        .isEqualTo(runs);
    assertThat(
            HistoryWireMapping.fromWire(
                overTheWire(HistoryWireMapping.toWire(executions), QueryExecutionsResponse::new)))
        .isEqualTo(executions);
    assertThat(
            HistoryWireMapping.fromWire(
                overTheWire(HistoryWireMapping.toWire(empty), QueryExecutionsResponse::new)))
        .isEqualTo(empty);
  }

  @Test
  void queriesTheHistoryRefusesFailWithTheirReason() {
    assertThatThrownBy(() -> HistoryWireMapping.fromWire(new QueryRunsRequest().setLimit(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("run query limit is 0; use 1 to 1000");
    assertThatThrownBy(() -> HistoryWireMapping.fromWire(new QueryRunsRequest().setSort("BEST")))
        .hasMessage("run query sort is 'BEST'; use NEWEST, OLDEST, LONGEST, SHORTEST");
    assertThatThrownBy(() -> HistoryWireMapping.fromWire(new QueryExecutionsRequest()))
        .hasMessage("an execution query needs a workflow");
  }

  @Test
  void structsWithoutRequiredFieldsSayWhichFieldIsMissing() {
    dev.flipper.workflow.master.thrift.RunRecord noStart =
        HistoryWireMapping.toWire(RUN).setStartMillis(0);
    noStart.unsetStartMillis();
    dev.flipper.workflow.master.thrift.ExecutionRecord noJob =
        HistoryWireMapping.toWire(FINISHED).setJob(null);

    assertThatThrownBy(() -> HistoryWireMapping.fromWire(noStart))
        .hasMessage("the run etl/20261128-1 has no startMillis; it is required");
    assertThatThrownBy(() -> HistoryWireMapping.fromWire(noJob))
        .hasMessage("an execution of etl/20261128-1 has no job; it is required");
    assertThatThrownBy(
            () -> HistoryWireMapping.fromWire(new dev.flipper.workflow.master.thrift.RunArchive()))
        .hasMessage("the run archive has no run; it is required");
    assertThatThrownBy(() -> HistoryWireMapping.fromWire(new QueryRunsResponse()))
        .hasMessage("the master's page of runs has no total; it is required");
  }

  @Test
  void parameterNamesMustBePresentAndUnique() {
    dev.flipper.workflow.master.thrift.RunRecord twice =
        HistoryWireMapping.toWire(RUN)
            .setParams(
                List.of(
                    new NamedValue().setName("a").setValue("1"),
                    new NamedValue().setName("a").setValue("2")));
    dev.flipper.workflow.master.thrift.RunRecord nameless =
        HistoryWireMapping.toWire(RUN).setParams(List.of(new NamedValue().setValue("1")));

    assertThatThrownBy(() -> HistoryWireMapping.fromWire(twice))
        .hasMessage("the run etl/20261128-1: params: 'a' appears twice; names must be unique");
    assertThatThrownBy(() -> HistoryWireMapping.fromWire(nameless))
        .hasMessage("the run etl/20261128-1: params: an entry has no name; names are required");
  }

  private static Map<String, String> ordered(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  /** Serialised with the binary protocol the master speaks, then read back into a new struct. */
  private static <T extends TBase<?, ?>> T overTheWire(T wire, Supplier<T> empty)
      throws TException {
    byte[] bytes = new TSerializer(new TBinaryProtocol.Factory()).serialize(wire);
    T read = empty.get();
    new TDeserializer(new TBinaryProtocol.Factory()).deserialize(read, bytes);
    return read;
  }
}
