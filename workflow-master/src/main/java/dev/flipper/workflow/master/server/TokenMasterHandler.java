package dev.flipper.workflow.master.server;

import dev.flipper.history.RunArchive;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.workflow.master.thrift.ArchiveRequest;
import dev.flipper.workflow.master.thrift.ArchivedQueryRequest;
import dev.flipper.workflow.master.thrift.ArchivedQueryResponse;
import dev.flipper.workflow.master.thrift.DeleteArchivedRequest;
import dev.flipper.workflow.master.thrift.DeleteArchivedResponse;
import dev.flipper.workflow.master.thrift.DeleteRunRequest;
import dev.flipper.workflow.master.thrift.DeleteRunResponse;
import dev.flipper.workflow.master.thrift.GroupRequest;
import dev.flipper.workflow.master.thrift.GroupResponse;
import dev.flipper.workflow.master.thrift.ModifyRequest;
import dev.flipper.workflow.master.thrift.ModifyResponse;
import dev.flipper.workflow.master.thrift.QueryAndOwnRequest;
import dev.flipper.workflow.master.thrift.QueryAndOwnResponse;
import dev.flipper.workflow.master.thrift.QueryExecutionsRequest;
import dev.flipper.workflow.master.thrift.QueryExecutionsResponse;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.QueryResponse;
import dev.flipper.workflow.master.thrift.QueryRunsRequest;
import dev.flipper.workflow.master.thrift.QueryRunsResponse;
import dev.flipper.workflow.master.thrift.TokenMasterException;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import dev.flipper.workflow.master.wire.HistoryWireMapping;
import dev.flipper.workflow.master.wire.WireMapping;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves TokenMasterService over a {@link TokenMaster}: converts requests, and errors into
 * TokenMasterException. Responses leave fields unset where the original did (GroupResponse.counts
 * for an empty prefix, ModifyResponse.updates when nothing was updated). Thread-safe.
 */
final class TokenMasterHandler implements TokenMasterService.Iface {
  private static final Logger log = LoggerFactory.getLogger(TokenMasterHandler.class);

  private final TokenMaster master;
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile boolean closing;

  TokenMasterHandler(TokenMaster master) {
    this.master = master;
  }

  /**
   * Calls running now. While the server closes, this also ends claims that started waiting since
   * {@link #closing()}: one that had read its request just before may register its wait after that
   * call. The server polls this until the calls are done, so every such wait ends within one poll.
   */
  int inFlight() {
    if (closing) {
      endWaits();
    }
    return inFlight.get();
  }

  /**
   * The server is closing: claims stop waiting, so that their clients get an (empty) answer before
   * the connections close. Ends the waits in progress and makes later claims answer at once.
   */
  void closing() {
    closing = true;
    endWaits();
  }

  private void endWaits() {
    if (master
        instanceof
        TokenService service) { // waits live in the service; a remote master has none here
      service.endWaits();
    }
  }

  @Override
  public void archive(ArchiveRequest request) throws TokenMasterException {
    run(
        "archive",
        () -> {
          requireRequest(request, "archive");
          List<Token> tokens = WireMapping.fromWire(request.getTokens());
          if (request.isSetRun()) {
            RunArchive run =
                fromRequest("archive", () -> HistoryWireMapping.fromWire(request.getRun()));
            master.archive(tokens, run);
          } else {
            master.archive(tokens);
          }
          return null;
        });
  }

  @Override
  public GroupResponse group(GroupRequest request) throws TokenMasterException {
    return run(
        "group",
        () -> {
          requireRequest(request, "group");
          GroupResponse response = new GroupResponse();
          String prefix = request.getNamePrefix();
          if (prefix != null && !prefix.isEmpty()) {
            Map<String, Integer> counts =
                new HashMap<>(master.group(prefix, request.getGroupSuffix()));
            response.setCounts(counts);
          }
          return response;
        });
  }

  @Override
  public ModifyResponse modify(ModifyRequest request) throws TokenMasterException {
    return run(
        "modify",
        () -> {
          requireRequest(request, "modify");
          List<Token> written = master.modify(WireMapping.fromWire(request));
          ModifyResponse response = new ModifyResponse();
          if (!written.isEmpty()) {
            response.setUpdates(WireMapping.toWire(written));
          }
          return response;
        });
  }

  @Override
  public QueryResponse query(QueryRequest request) throws TokenMasterException {
    return run(
        "query",
        () -> {
          requireRequest(request, "query");
          QueryResponse response = new QueryResponse();
          if (request.getQueries() != null) {
            List<Query> queries = new ArrayList<>();
            for (dev.flipper.workflow.master.thrift.Query query : request.getQueries()) {
              requirePrefix(query, "query " + (queries.size() + 1));
              queries.add(WireMapping.fromWire(query));
            }
            List<List<dev.flipper.workflow.master.thrift.Token>> lists = new ArrayList<>();
            for (List<Token> tokens : master.query(queries)) {
              lists.add(WireMapping.toWire(tokens));
            }
            response.setTokens(lists);
          }
          return response;
        });
  }

  @Override
  public QueryAndOwnResponse query_and_own(QueryAndOwnRequest request) throws TokenMasterException {
    return run(
        "query_and_own",
        () -> {
          requireRequest(request, "query_and_own");
          requirePrefix(request.getQuery(), "query_and_own: the query");
          QueryAndOwnParams params = WireMapping.fromWire(request);
          if (closing && params.waits()) {
            params = params.withWaitTime(Duration.ZERO);
          }
          return new QueryAndOwnResponse()
              .setTokens(WireMapping.toWire(master.queryAndOwn(params)));
        });
  }

  @Override
  public ArchivedQueryResponse query_archived(ArchivedQueryRequest request)
      throws TokenMasterException {
    return run(
        "query_archived",
        () -> {
          requireRequest(request, "query_archived");
          if (request.getNamePrefix() == null) {
            throw TokenException.inputError(
                "query_archived has no namePrefix; set one (\"\" reads the whole archive,"
                    + " page by page)");
          }
          if (request.isSetAfterName() != request.isSetAfterVersion()) {
            throw TokenException.inputError(
                "query_archived: afterName and afterVersion go together (the last token"
                    + " of the previous page); set both or neither");
          }
          Token after =
              request.isSetAfterName()
                  ? Token.of(request.getAfterName(), null).withVersion(request.getAfterVersion())
                  : null;
          int maxTokens =
              request.isSetMaxTokens() ? request.getMaxTokens() : TokenService.MAX_ARCHIVED_PAGE;
          List<Token> page = master.queryArchived(request.getNamePrefix(), after, maxTokens);
          return new ArchivedQueryResponse().setTokens(WireMapping.toWire(page));
        });
  }

  @Override
  public DeleteArchivedResponse delete_archived(DeleteArchivedRequest request)
      throws TokenMasterException {
    return run(
        "delete_archived",
        () -> {
          requireRequest(request, "delete_archived");
          return new DeleteArchivedResponse()
              .setDeleted(master.deleteArchived(request.getNamePrefix()));
        });
  }

  @Override
  public QueryRunsResponse query_runs(QueryRunsRequest request) throws TokenMasterException {
    return run(
        "query_runs",
        () -> {
          requireRequest(request, "query_runs");
          return HistoryWireMapping.toWire(
              master.queryRuns(
                  fromRequest("query_runs", () -> HistoryWireMapping.fromWire(request))));
        });
  }

  @Override
  public QueryExecutionsResponse query_executions(QueryExecutionsRequest request)
      throws TokenMasterException {
    return run(
        "query_executions",
        () -> {
          requireRequest(request, "query_executions");
          return HistoryWireMapping.toWire(
              master.queryExecutions(
                  fromRequest("query_executions", () -> HistoryWireMapping.fromWire(request))));
        });
  }

  @Override
  public DeleteRunResponse delete_run(DeleteRunRequest request) throws TokenMasterException {
    return run(
        "delete_run",
        () -> {
          requireRequest(request, "delete_run");
          return new DeleteRunResponse()
              .setDeleted(master.deleteRun(request.getWorkflow(), request.getInstance()));
        });
  }

  /**
   * The history value a request describes. Its constructor refuses what the caller got wrong (a
   * limit of 0, a missing field) with IllegalArgumentException: that is the caller's INPUT_ERROR,
   * not a failure of the master.
   */
  private static <T> T fromRequest(String method, Supplier<T> mapping) {
    try {
      return mapping.get();
    } catch (IllegalArgumentException e) {
      throw TokenException.inputError(method + ": " + e.getMessage());
    }
  }

  /** A Thrift client may send no request struct at all (null args field). */
  private static void requireRequest(Object request, String method) {
    if (request == null) {
      throw TokenException.inputError(method + " needs a request; the call carried none");
    }
  }

  /**
   * An unset namePrefix would read as "" and match every token; "" says so on purpose. A null query
   * is left to the service (an error in a list, nothing claimed for query_and_own, as Pinball's
   * master).
   */
  private static void requirePrefix(dev.flipper.workflow.master.thrift.Query query, String which) {
    if (query != null && query.getNamePrefix() == null) {
      throw TokenException.inputError(
          which + " has no namePrefix; set one (\"\" reads every token)");
    }
  }

  private <T> T run(String method, Supplier<T> call) throws TokenMasterException {
    inFlight.incrementAndGet();
    try {
      return call.get();
    } catch (TokenException e) {
      if (e.errorCode() == TokenErrorCode.UNKNOWN) {
        log.warn("{} failed: {}", method, e.getMessage());
      }
      throw WireMapping.toWire(e);
    } catch (RuntimeException e) {
      log.error("{} failed unexpectedly; this indicates a bug", method, e);
      throw WireMapping.toWire(
          new TokenException(
              TokenErrorCode.UNKNOWN,
              method + " failed inside the master" + " (a bug; see its log): " + e));
    } finally {
      inFlight.decrementAndGet();
    }
  }
}
