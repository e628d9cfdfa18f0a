package dev.flipper.workflow.control;

import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import java.util.ArrayList;
import java.util.List;

/**
 * Read and delete access to archived tokens, which {@code retry} of an archived instance, {@code
 * cleanup} and {@code status} need, and the run history's rows that cleanup deletes with them.
 * Served by the token master ({@link TokenMaster#queryArchived}), embedded or over Thrift, so
 * nothing but the master opens its database. Implementations are thread-safe.
 */
public interface ArchivedTokens {
  /**
   * Archived tokens under the prefix, by name, then version (a name may have been archived more
   * than once).
   */
  List<Token> query(String namePrefix);

  /** Deletes the archived tokens under a non-empty prefix for good; returns how many. */
  int delete(String namePrefix);

  /** Deletes an instance's run and executions from the run history; returns how many rows. */
  int deleteRun(String workflow, String instance);

  /**
   * The master's archive; {@link #query} reads it in pages of the largest size the master serves.
   */
  static ArchivedTokens of(TokenMaster master) {
    return new ArchivedTokens() {
      @Override
      public List<Token> query(String namePrefix) {
        List<Token> all = new ArrayList<>();
        List<Token> page;
        do {
          Token after = all.isEmpty() ? null : all.get(all.size() - 1);
          page = master.queryArchived(namePrefix, after, TokenService.MAX_ARCHIVED_PAGE);
          all.addAll(page);
        } while (page.size() == TokenService.MAX_ARCHIVED_PAGE);
        return all;
      }

      @Override
      public int delete(String namePrefix) {
        return master.deleteArchived(namePrefix);
      }

      @Override
      public int deleteRun(String workflow, String instance) {
        return master.deleteRun(workflow, instance);
      }
    };
  }
}
