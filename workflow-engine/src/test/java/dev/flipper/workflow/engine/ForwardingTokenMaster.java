package dev.flipper.workflow.engine;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import java.util.List;
import java.util.SortedMap;

/** A master that passes every call on to another; tests override the calls they watch or break. */
public class ForwardingTokenMaster implements TokenMaster {
  private final TokenMaster delegate;

  public ForwardingTokenMaster(TokenMaster delegate) {
    this.delegate = delegate;
  }

  @Override
  public List<Token> modify(ModifyParams params) {
    return delegate.modify(params);
  }

  @Override
  public List<List<Token>> query(List<Query> queries) {
    return delegate.query(queries);
  }

  @Override
  public List<Token> queryAndOwn(QueryAndOwnParams params) {
    return delegate.queryAndOwn(params);
  }

  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    return delegate.group(namePrefix, groupSuffix);
  }

  @Override
  public void archive(List<Token> tokens) {
    delegate.archive(tokens);
  }

  @Override
  public List<Token> queryArchived(String namePrefix, Token after, int maxTokens) {
    return delegate.queryArchived(namePrefix, after, maxTokens);
  }

  @Override
  public int deleteArchived(String namePrefix) {
    return delegate.deleteArchived(namePrefix);
  }

  @Override
  public void archive(List<Token> tokens, RunArchive run) {
    delegate.archive(tokens, run);
  }

  @Override
  public RunPage queryRuns(RunQuery query) {
    return delegate.queryRuns(query);
  }

  @Override
  public ExecutionPage queryExecutions(ExecutionQuery query) {
    return delegate.queryExecutions(query);
  }

  @Override
  public int deleteRun(String workflow, String instance) {
    return delegate.deleteRun(workflow, instance);
  }
}
