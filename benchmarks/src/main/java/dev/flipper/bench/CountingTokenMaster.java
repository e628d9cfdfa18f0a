package dev.flipper.bench;

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
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link TokenMaster} that counts the calls it passes on (one call = one round trip to a remote
 * master).
 */
final class CountingTokenMaster implements TokenMaster {
  private final TokenMaster delegate;
  private final LongAdder calls = new LongAdder();

  CountingTokenMaster(TokenMaster delegate) {
    this.delegate = delegate;
  }

  long calls() {
    return calls.sum();
  }

  @Override
  public List<Token> modify(ModifyParams params) {
    calls.increment();
    return delegate.modify(params);
  }

  @Override
  public List<List<Token>> query(List<Query> queries) {
    calls.increment();
    return delegate.query(queries);
  }

  @Override
  public List<Token> queryAndOwn(QueryAndOwnParams params) {
    calls.increment();
    return delegate.queryAndOwn(params);
  }

  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    calls.increment();
    return delegate.group(namePrefix, groupSuffix);
  }

  @Override
  public void archive(List<Token> tokens) {
    calls.increment();
    delegate.archive(tokens);
  }

  @Override
  public List<Token> queryArchived(String namePrefix, Token after, int maxTokens) {
    calls.increment();
    return delegate.queryArchived(namePrefix, after, maxTokens);
  }

  @Override
  public int deleteArchived(String namePrefix) {
    calls.increment();
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
