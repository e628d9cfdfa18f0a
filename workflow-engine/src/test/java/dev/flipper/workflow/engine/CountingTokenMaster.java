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
import java.util.concurrent.atomic.AtomicLong;

/** A master that counts the calls made through it and the tokens they read; thread-safe. */
final class CountingTokenMaster implements TokenMaster {
  private final TokenMaster master;
  final AtomicLong modifies = new AtomicLong();
  final AtomicLong queries = new AtomicLong();
  final AtomicLong claims = new AtomicLong();
  final AtomicLong others = new AtomicLong();

  /** Tokens returned by query calls. */
  final AtomicLong tokensRead = new AtomicLong();

  CountingTokenMaster(TokenMaster master) {
    this.master = master;
  }

  long calls() {
    return modifies.get() + queries.get() + claims.get() + others.get();
  }

  void reset() {
    modifies.set(0);
    queries.set(0);
    claims.set(0);
    others.set(0);
    tokensRead.set(0);
  }

  @Override
  public List<Token> modify(ModifyParams params) {
    modifies.incrementAndGet();
    return master.modify(params);
  }

  @Override
  public List<List<Token>> query(List<Query> queries) {
    this.queries.incrementAndGet();
    List<List<Token>> read = master.query(queries);
    tokensRead.addAndGet(read.stream().mapToLong(List::size).sum());
    return read;
  }

  @Override
  public List<Token> queryAndOwn(QueryAndOwnParams params) {
    claims.incrementAndGet();
    return master.queryAndOwn(params);
  }

  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    others.incrementAndGet();
    return master.group(namePrefix, groupSuffix);
  }

  @Override
  public void archive(List<Token> tokens) {
    others.incrementAndGet();
    master.archive(tokens);
  }

  @Override
  public List<Token> queryArchived(String namePrefix, Token after, int maxTokens) {
    others.incrementAndGet();
    return master.queryArchived(namePrefix, after, maxTokens);
  }

  @Override
  public int deleteArchived(String namePrefix) {
    others.incrementAndGet();
    return master.deleteArchived(namePrefix);
  }

  @Override
  public void archive(List<Token> tokens, RunArchive run) {
    master.archive(tokens, run);
  }

  @Override
  public RunPage queryRuns(RunQuery query) {
    return master.queryRuns(query);
  }

  @Override
  public ExecutionPage queryExecutions(ExecutionQuery query) {
    return master.queryExecutions(query);
  }

  @Override
  public int deleteRun(String workflow, String instance) {
    return master.deleteRun(workflow, instance);
  }
}
