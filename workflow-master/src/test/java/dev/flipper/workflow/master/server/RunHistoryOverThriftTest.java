package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.tls.TlsFolder;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.token.spi.TokenStore;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.thrift.ArchiveRequest;
import dev.flipper.workflow.master.thrift.ErrorCode;
import dev.flipper.workflow.master.thrift.QueryExecutionsRequest;
import dev.flipper.workflow.master.thrift.QueryRunsRequest;
import dev.flipper.workflow.master.thrift.TokenMasterException;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import dev.flipper.workflow.master.wire.HistoryWireMapping;
import dev.flipper.workflow.tokens.TokenLayout;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Predicate;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run history through a real master over TCP: what is archived with a run reads back equal
 * through {@link TokenMasterClient}, queries the history refuses come back as INPUT_ERROR with
 * their reason (from Flipper's client and from a plain generated one), and with TLS every role
 * reads the history while only the roles that archive record runs and only an admin deletes them.
 */
class RunHistoryOverThriftTest {
  private static final String WORKFLOW = "etl";
  private static final String INSTANCE = "20261128-1";

  @TempDir Path certificates;

  private final MetricRegistry metrics = new MetricRegistry();
  private final List<AutoCloseable> open = new ArrayList<>();
  private TokenService service;
  private TokenMasterServer server;

  @AfterEach
  void stop() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private TokenMasterServer start(TokenMasterServer.Builder builder) {
    server = builder.port(0).bindHost("127.0.0.1").metrics(metrics).build().start();
    open.add(server);
    return server;
  }

  private TokenMasterServer startPlain() {
    service = TokenService.builder(new HistoryListStore(InMemoryTokenStore.create())).build();
    return start(TokenMasterServer.builder(service));
  }

  private TokenMasterClient client(TokenMasterClient.Builder builder) {
    TokenMasterClient client = builder.connectAttempts(1).build();
    open.add(client);
    return client;
  }

  private TokenMasterClient plainClient() {
    return client(TokenMasterClient.builder("127.0.0.1", server.port()));
  }

  private TokenMasterService.Client generatedClient() throws Exception {
    TSocket socket = new TSocket("127.0.0.1", server.port());
    socket.open();
    open.add(socket::close);
    return new TokenMasterService.Client(new TBinaryProtocol(socket));
  }

  private static RunArchive runOf(String instance) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("date", "2026-11-28");
    params.put("région", "Zürich ☃ 東京");
    params.put("empty", "");
    RunRecord run =
        new RunRecord(
            WORKFLOW, instance, "FAILURE", "scheduler", 1_000L, 9_000L, params, List.of("load"));
    ExecutionRecord failed =
        new ExecutionRecord(
            WORKFLOW,
            instance,
            "load",
            1,
            1,
            "FAILURE",
            3_000L,
            8_000L,
            2,
            "worker-1",
            "host-a",
            null,
            Map.of("stdout", "http://host-a:9091/logs/etl/load/1/stdout"));
    ExecutionRecord leaseLost =
        new ExecutionRecord(
            WORKFLOW,
            instance,
            "extract",
            1,
            1,
            "ABORTED",
            2_000L,
            null,
            null,
            null,
            null,
            "lease lost",
            Map.of());
    return new RunArchive(run, List.of(failed, leaseLost));
  }

  @Test
  void aRunArchivedWithItsTokensReadsBackEqual() {
    startPlain();
    TokenMasterClient client = plainClient();
    List<Token> tokens =
        client.modify(
            ModifyParams.updating(Token.of(TokenLayout.instanceRecord(WORKFLOW, INSTANCE), "{}")));
    RunArchive archive = runOf(INSTANCE);

    client.archive(tokens, archive);

    assertThat(client.query(Query.prefix(TokenLayout.WORKFLOWS))).isEmpty();
    assertThat(client.queryArchived(TokenLayout.WORKFLOWS, null, 10)).hasSize(1);
    RunPage runs = client.queryRuns(RunQuery.latest(WORKFLOW, 10));
    assertThat(runs).isEqualTo(new RunPage(List.of(archive.run()), 1));
    assertThat(runs.runs().get(0).params().keySet()).containsExactly("date", "région", "empty");
    ExecutionPage executions =
        client.queryExecutions(ExecutionQuery.ofInstances(WORKFLOW, List.of(INSTANCE), 10));
    assertThat(executions).isEqualTo(new ExecutionPage(archive.executions(), 2));
    assertThat(executions.executions().get(1).exitCode()).isNull();
    assertThat(executions.executions().get(1).endMillis()).isNull();
  }

  @Test
  void aRunMayBeRecordedWithoutTokensAndIsDeletedOnce() {
    startPlain();
    TokenMasterClient client = plainClient();
    client.archive(List.of(), runOf("1"));
    client.archive(null, runOf("2"));

    assertThat(client.queryRuns(RunQuery.latest(WORKFLOW, 1)).total()).isEqualTo(2);
    assertThat(client.deleteRun(WORKFLOW, "1")).isEqualTo(3); // the run and its two executions
    assertThat(client.deleteRun(WORKFLOW, "1")).isZero();
    assertThat(client.queryRuns(RunQuery.latest(WORKFLOW, 10)).runs())
        .extracting(RunRecord::instance)
        .containsExactly("2");
  }

  @Test
  void theClientRefusesWhatCannotBeSent() {
    startPlain();
    TokenMasterClient client = plainClient();

    assertThatThrownBy(() -> client.archive(List.of(), null))
        .isInstanceOf(TokenException.class)
        .hasMessage("an archive with run history needs the run");
    assertThatThrownBy(() -> client.queryRuns(null)).hasMessage("queryRuns needs a query");
    assertThatThrownBy(() -> client.queryExecutions(null))
        .hasMessage("queryExecutions needs a query");
    TokenException noInstance =
        catchThrowableOfType(TokenException.class, () -> client.deleteRun(WORKFLOW, null));
    assertThat(noInstance.errorCode()).isEqualTo(TokenErrorCode.INPUT_ERROR);
    assertThat(noInstance.getMessage()).contains("deleteRun needs a workflow and an instance");
  }

  @Test
  void queriesTheHistoryRefusesAreInputErrorsWithTheirReason() throws Exception {
    startPlain();
    TokenMasterService.Client client = generatedClient();

    TokenMasterException zero =
        catchThrowableOfType(
            TokenMasterException.class,
            () -> client.query_runs(new QueryRunsRequest().setLimit(0)));
    TokenMasterException tooMany =
        catchThrowableOfType(
            TokenMasterException.class,
            () -> client.query_runs(new QueryRunsRequest().setLimit(5000)));
    TokenMasterException badSort =
        catchThrowableOfType(
            TokenMasterException.class,
            () -> client.query_runs(new QueryRunsRequest().setSort("newest")));
    TokenMasterException noWorkflow =
        catchThrowableOfType(
            TokenMasterException.class,
            () -> client.query_executions(new QueryExecutionsRequest().setLimit(10)));
    TokenMasterException negativeOffset =
        catchThrowableOfType(
            TokenMasterException.class,
            () ->
                client.query_executions(
                    new QueryExecutionsRequest().setWorkflow(WORKFLOW).setOffset(-1)));
    TokenMasterException noRequest =
        catchThrowableOfType(TokenMasterException.class, () -> client.query_runs(null));

    assertThat(List.of(zero, tooMany, badSort, noWorkflow, negativeOffset, noRequest))
        .extracting(TokenMasterException::getErrorCode)
        .containsOnly(ErrorCode.INPUT_ERROR);
    assertThat(zero.getErrorMessage()).isEqualTo("query_runs: run query limit is 0; use 1 to 1000");
    assertThat(tooMany.getErrorMessage())
        .isEqualTo("query_runs: run query limit is 5000; use 1 to 1000");
    assertThat(badSort.getErrorMessage())
        .isEqualTo("query_runs: run query sort is 'newest'; use NEWEST, OLDEST, LONGEST, SHORTEST");
    assertThat(noWorkflow.getErrorMessage())
        .isEqualTo("query_executions: an execution query needs a workflow");
    assertThat(negativeOffset.getErrorMessage())
        .isEqualTo("query_executions: execution query offset is -1; use 0 or more");
    assertThat(noRequest.getErrorMessage()).contains("query_runs needs a request");
    assertThat(metrics.counter("TokenMaster.query_runs.errors.INPUT_ERROR").getCount())
        .isEqualTo(4);
    assertThat(metrics.counter("TokenMaster.query_runs.errors.UNKNOWN").getCount()).isZero();
    assertThat(client.query_runs(new QueryRunsRequest()).getTotal()).isZero(); // still serving
  }

  @Test
  void aMalformedRunArchivesNothing() throws Exception {
    startPlain();
    TokenMasterService.Client client = generatedClient();
    Token token =
        service.modify(ModifyParams.updating(Token.of("/workflow/etl/1/instance", "{}"))).get(0);
    dev.flipper.workflow.master.thrift.RunArchive noInstance =
        HistoryWireMapping.toWire(runOf("1"));
    noInstance.getRun().setInstance(null);
    dev.flipper.workflow.master.thrift.RunArchive foreignExecution =
        HistoryWireMapping.toWire(runOf("1"));
    foreignExecution.getExecutions().get(0).setInstance("2");

    TokenMasterException missing =
        catchThrowableOfType(
            TokenMasterException.class,
            () ->
                client.archive(
                    new ArchiveRequest()
                        .setTokens(
                            List.of(dev.flipper.workflow.master.wire.WireMapping.toWire(token)))
                        .setRun(noInstance)));
    TokenMasterException foreign =
        catchThrowableOfType(
            TokenMasterException.class,
            () -> client.archive(new ArchiveRequest().setRun(foreignExecution)));

    assertThat(missing.getErrorCode()).isEqualTo(ErrorCode.INPUT_ERROR);
    assertThat(missing.getErrorMessage())
        .isEqualTo("archive: a run of etl has no instance; it is required");
    assertThat(foreign.getErrorCode()).isEqualTo(ErrorCode.INPUT_ERROR);
    assertThat(foreign.getErrorMessage())
        .isEqualTo("archive: execution of etl/2/load does not belong to run etl/1");
    assertThat(service.query(List.of(Query.prefix("/workflow/"))).get(0)).containsExactly(token);
    assertThat(service.queryRuns(RunQuery.latest(null, 10)).total()).isZero();
  }

  @Test
  void withTlsEveryRoleReadsTheHistoryButOnlyArchiversRecordAndOnlyAdminsDelete() throws Exception {
    TlsFolder folder = TlsFolder.init(certificates, List.of(), Clock.systemUTC());
    service = TokenService.builder(new HistoryListStore(InMemoryTokenStore.create())).build();
    start(TokenMasterServer.builder(service).tls(folder.identity("master")));
    TokenMasterClient app = tlsClient(folder, "app");
    TokenMasterClient workers = tlsClient(folder, "workers");
    TokenMasterClient operator = tlsClient(folder, "operator");
    TokenMasterClient admin = tlsClient(folder, "admin");

    assertThatThrownBy(() -> app.archive(List.of(), runOf("1")))
        .isInstanceOf(TokenException.class)
        .hasMessageContaining("role app may not archive /workflow/etl/1/");
    workers.archive(List.of(), runOf("1"));
    operator.archive(List.of(), runOf("2"));

    assertThat(app.queryRuns(RunQuery.latest(WORKFLOW, 10)).total()).isEqualTo(2);
    assertThat(app.queryExecutions(ExecutionQuery.ofJob(WORKFLOW, "load", 10)).total())
        .isEqualTo(2);
    for (TokenMasterClient notAdmin : List.of(app, workers, operator)) {
      TokenException refused =
          catchThrowableOfType(TokenException.class, () -> notAdmin.deleteRun(WORKFLOW, "1"));
      assertThat(refused.errorCode()).isEqualTo(TokenErrorCode.INPUT_ERROR);
      assertThat(refused.getMessage())
          .contains("may not delete the recorded run of /workflow/etl/1/");
    }
    assertThat(admin.deleteRun(WORKFLOW, "1")).isEqualTo(3);
    assertThat(app.queryRuns(RunQuery.latest(WORKFLOW, 10)).runs())
        .extracting(RunRecord::instance)
        .containsExactly("2");
    assertThat(metrics.counter("master.refused.app").getCount()).isEqualTo(2);
  }

  @Test
  void runsAreCheckedByTheEnginesInstancePrefix() {
    assertThat(MasterPermissions.runName(WORKFLOW, INSTANCE))
        .isEqualTo(TokenLayout.instancePrefix(WORKFLOW, INSTANCE));
  }

  private TokenMasterClient tlsClient(TlsFolder folder, String name) throws Exception {
    return client(TokenMasterClient.builder("127.0.0.1", server.port()).tls(folder.identity(name)));
  }

  /**
   * Test-only: the in-memory token store with a run history kept in a list (queue-core's stores
   * implement it for real); enough to carry values over the wire and back. Filters by workflow, job
   * and instances, newest start first.
   */
  private static final class HistoryListStore implements TokenStore {
    private final TokenStore tokens;
    private final List<RunRecord> runs = new ArrayList<>();
    private final List<ExecutionRecord> executions = new ArrayList<>();

    HistoryListStore(TokenStore tokens) {
      this.tokens = tokens;
    }

    @Override
    public synchronized void archive(List<Token> archived, RunArchive run, long nowMillis) {
      if (!archived.isEmpty()) {
        tokens.archive(archived, nowMillis);
      }
      deleteRun(run.run().workflow(), run.run().instance());
      runs.add(run.run());
      executions.addAll(run.executions());
    }

    @Override
    public synchronized RunPage queryRuns(RunQuery query) {
      List<RunRecord> matching =
          runs.stream()
              .filter(r -> query.workflow() == null || r.workflow().equals(query.workflow()))
              .sorted(Comparator.comparingLong(RunRecord::startMillis).reversed())
              .toList();
      return new RunPage(page(matching, query.offset(), query.limit()), matching.size());
    }

    @Override
    public synchronized ExecutionPage queryExecutions(ExecutionQuery query) {
      Predicate<ExecutionRecord> matches =
          e ->
              e.workflow().equals(query.workflow())
                  && (query.job() == null || e.job().equals(query.job()))
                  && (query.instances().isEmpty() || query.instances().contains(e.instance()));
      List<ExecutionRecord> matching =
          executions.stream()
              .filter(matches)
              .sorted(Comparator.comparingLong(ExecutionRecord::startMillis).reversed())
              .toList();
      return new ExecutionPage(page(matching, query.offset(), query.limit()), matching.size());
    }

    @Override
    public synchronized int deleteRun(String workflow, String instance) {
      Predicate<RunRecord> run =
          r -> r.workflow().equals(workflow) && r.instance().equals(instance);
      Predicate<ExecutionRecord> execution =
          e -> e.workflow().equals(workflow) && e.instance().equals(instance);
      int before = runs.size() + executions.size();
      runs.removeIf(run);
      executions.removeIf(execution);
      return before - runs.size() - executions.size();
    }

    private static <T> List<T> page(List<T> all, int offset, int limit) {
      return all.subList(Math.min(offset, all.size()), Math.min(offset + limit, all.size()));
    }

    @Override
    public List<Token> modify(List<Token> updates, List<Token> deletes, long nowMillis) {
      return tokens.modify(updates, deletes, nowMillis);
    }

    @Override
    public List<List<Token>> query(List<Query> queries) {
      return tokens.query(queries);
    }

    @Override
    public List<Token> queryAndOwn(dev.flipper.token.QueryAndOwnParams params, long nowMillis) {
      return tokens.queryAndOwn(params, nowMillis);
    }

    @Override
    public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
      return tokens.group(namePrefix, groupSuffix);
    }

    @Override
    public void archive(List<Token> archived, long nowMillis) {
      tokens.archive(archived, nowMillis);
    }

    @Override
    public List<Token> queryArchived(String namePrefix) {
      return tokens.queryArchived(namePrefix);
    }

    @Override
    public int deleteArchived(String namePrefix) {
      return tokens.deleteArchived(namePrefix);
    }

    @Override
    public void close() {
      tokens.close();
    }
  }
}
