package dev.flipper.workflow.ui;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import java.util.List;
import java.util.SortedMap;

/** The master of a UI started with master.port 0 and no master in its process: every call says so. */
final class NoMaster implements TokenMaster {
  private static TokenException missing() {
    return new TokenException(TokenErrorCode.UNKNOWN,
        "master.port is 0 and no master runs in this process: set master.port to the port of the master");
  }

  @Override
  public List<Token> modify(ModifyParams params) {
    throw missing();
  }

  @Override
  public List<List<Token>> query(List<Query> queries) {
    throw missing();
  }

  @Override
  public List<Token> queryAndOwn(QueryAndOwnParams params) {
    throw missing();
  }

  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    throw missing();
  }

  @Override
  public void archive(List<Token> tokens) {
    throw missing();
  }

  @Override
  public List<Token> queryArchived(String namePrefix, Token after, int maxTokens) {
    throw missing();
  }

  @Override
  public int deleteArchived(String namePrefix) {
    throw missing();
  }
}
