package dev.flipper.launcher.modes;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import java.util.List;
import java.util.SortedMap;
import java.util.function.Supplier;

/**
 * The master of a daemon started with master.port 0 and no master in its process (a test starting
 * each mode alone): the daemon starts, and every call fails saying what to configure. Stateless.
 */
public final class NoMaster implements TokenMaster {
  private final Supplier<RuntimeException> missing;

  private NoMaster(Supplier<RuntimeException> missing) {
    this.missing = missing;
  }

  /** The UI's: its pages say it (TokenException UNKNOWN, as an unreachable master). */
  public static TokenMaster forUi() {
    return new NoMaster(
        () ->
            new TokenException(
                TokenErrorCode.UNKNOWN,
                "master.port is 0 and no master runs in this process: set master.port to the port of the master"));
  }

  /** The workers': each claim fails with this message, logged once per slot. */
  public static TokenMaster forWorkers() {
    return new NoMaster(
        () ->
            new IllegalStateException(
                "master.port is 0 and no master runs in this process: set "
                    + "master.port to the port of the master the workers should use"));
  }

  @Override
  public List<Token> modify(ModifyParams params) {
    throw missing.get();
  }

  @Override
  public List<List<Token>> query(List<Query> queries) {
    throw missing.get();
  }

  @Override
  public List<Token> queryAndOwn(QueryAndOwnParams params) {
    throw missing.get();
  }

  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    throw missing.get();
  }

  @Override
  public void archive(List<Token> tokens) {
    throw missing.get();
  }

  @Override
  public List<Token> queryArchived(String namePrefix, Token after, int maxTokens) {
    throw missing.get();
  }

  @Override
  public int deleteArchived(String namePrefix) {
    throw missing.get();
  }

  @Override
  public void archive(List<Token> tokens, RunArchive run) {
    throw missing.get();
  }

  @Override
  public RunPage queryRuns(RunQuery query) {
    throw missing.get();
  }

  @Override
  public ExecutionPage queryExecutions(ExecutionQuery query) {
    throw missing.get();
  }

  @Override
  public int deleteRun(String workflow, String instance) {
    throw missing.get();
  }

  @Override
  public String toString() {
    return "no master";
  }
}
