package dev.flipper.workflow.master.server;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.tls.Peer;
import dev.flipper.workflow.master.server.MasterPermissions.Change;
import dev.flipper.workflow.master.thrift.ArchiveRequest;
import dev.flipper.workflow.master.thrift.DeleteArchivedRequest;
import dev.flipper.workflow.master.thrift.DeleteArchivedResponse;
import dev.flipper.workflow.master.thrift.DeleteRunRequest;
import dev.flipper.workflow.master.thrift.DeleteRunResponse;
import dev.flipper.workflow.master.thrift.ErrorCode;
import dev.flipper.workflow.master.thrift.ModifyRequest;
import dev.flipper.workflow.master.thrift.ModifyResponse;
import dev.flipper.workflow.master.thrift.QueryAndOwnRequest;
import dev.flipper.workflow.master.thrift.QueryAndOwnResponse;
import dev.flipper.workflow.master.thrift.RunRecord;
import dev.flipper.workflow.master.thrift.Token;
import dev.flipper.workflow.master.thrift.TokenMasterException;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.util.List;
import org.apache.thrift.TException;

/**
 * The master's calls on one TLS connection, each checked against the role of the certificate at the
 * other end ({@link MasterPermissions}): reads pass; a change the role may not make fails with
 * INPUT_ERROR saying which role may not do what to which token, and counts {@code
 * master.refused.<role>}. A run recorded or deleted in the run history is checked as its instance's
 * token prefix ({@link MasterPermissions#runName}). Malformed requests (no request, a token without
 * name) pass on to the handler, which says what is wrong. Used by the connection's thread.
 */
final class AuthorisedCalls extends ForwardingCalls {
  /** The certificate at the other end, learned at the connection's first call. */
  @FunctionalInterface
  interface Caller {
    Peer peer() throws TException;
  }

  private final Caller caller;
  private final MetricRegistry metrics;

  AuthorisedCalls(TokenMasterService.Iface target, Caller caller, MetricRegistry metrics) {
    super(target);
    this.caller = caller;
    this.metrics = metrics;
  }

  @Override
  public ModifyResponse modify(ModifyRequest request) throws TException {
    if (request != null) {
      check(Change.WRITE, request.getUpdates());
      check(Change.DELETE, request.getDeletes());
    }
    return target.modify(request);
  }

  @Override
  public void archive(ArchiveRequest request) throws TException {
    if (request != null) {
      check(Change.ARCHIVE, request.getTokens());
      if (request.getRun() != null) {
        RunRecord run = request.getRun().getRun();
        if (run != null && run.getWorkflow() != null && run.getInstance() != null) {
          check(Change.ARCHIVE, MasterPermissions.runName(run.getWorkflow(), run.getInstance()));
        }
      }
    }
    target.archive(request);
  }

  @Override
  public QueryAndOwnResponse query_and_own(QueryAndOwnRequest request) throws TException {
    if (request != null && request.getQuery() != null) {
      check(Change.CLAIM, request.getQuery().getNamePrefix());
    }
    return target.query_and_own(request);
  }

  @Override
  public DeleteArchivedResponse delete_archived(DeleteArchivedRequest request) throws TException {
    check(
        Change.DELETE_ARCHIVED,
        request == null || request.getNamePrefix() == null ? "" : request.getNamePrefix());
    return target.delete_archived(request);
  }

  @Override
  public DeleteRunResponse delete_run(DeleteRunRequest request) throws TException {
    if (request != null && request.getWorkflow() != null && request.getInstance() != null) {
      check(
          Change.DELETE_RUN,
          MasterPermissions.runName(request.getWorkflow(), request.getInstance()));
    }
    return target.delete_run(request);
  }

  private void check(Change change, List<Token> tokens) throws TException {
    if (tokens != null) {
      for (Token token : tokens) {
        if (token != null) {
          check(change, token.getName());
        }
      }
    }
  }

  private void check(Change change, String name) throws TException {
    if (name == null) {
      return; // the handler says what is missing
    }
    Peer peer = caller.peer();
    String refusal = MasterPermissions.refusal(peer.role(), change, name);
    if (refusal != null) {
      metrics.counter("master.refused." + peer.role().label()).inc();
      throw new TokenMasterException()
          .setErrorCode(ErrorCode.INPUT_ERROR)
          .setErrorMessage(refusal + " (certificate of " + peer + "; docs/security.md)");
    }
  }
}
