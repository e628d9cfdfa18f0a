package dev.flipper.workflow.master.server;

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
import dev.flipper.workflow.master.thrift.TokenMasterService;
import org.apache.thrift.TException;

/**
 * Passes every call on to {@code target}: the base of the per-connection decorators ({@link
 * AuthorisedCalls}, {@link PublisherStamp}), which override only the calls they change.
 */
abstract class ForwardingCalls implements TokenMasterService.Iface {
  final TokenMasterService.Iface target;

  ForwardingCalls(TokenMasterService.Iface target) {
    this.target = target;
  }

  @Override
  public QueryResponse query(QueryRequest request) throws TException {
    return target.query(request);
  }

  @Override
  public GroupResponse group(GroupRequest request) throws TException {
    return target.group(request);
  }

  @Override
  public ArchivedQueryResponse query_archived(ArchivedQueryRequest request) throws TException {
    return target.query_archived(request);
  }

  @Override
  public ModifyResponse modify(ModifyRequest request) throws TException {
    return target.modify(request);
  }

  @Override
  public void archive(ArchiveRequest request) throws TException {
    target.archive(request);
  }

  @Override
  public QueryAndOwnResponse query_and_own(QueryAndOwnRequest request) throws TException {
    return target.query_and_own(request);
  }

  @Override
  public DeleteArchivedResponse delete_archived(DeleteArchivedRequest request) throws TException {
    return target.delete_archived(request);
  }

  @Override
  public QueryRunsResponse query_runs(QueryRunsRequest request) throws TException {
    return target.query_runs(request);
  }

  @Override
  public QueryExecutionsResponse query_executions(QueryExecutionsRequest request)
      throws TException {
    return target.query_executions(request);
  }

  @Override
  public DeleteRunResponse delete_run(DeleteRunRequest request) throws TException {
    return target.delete_run(request);
  }
}
