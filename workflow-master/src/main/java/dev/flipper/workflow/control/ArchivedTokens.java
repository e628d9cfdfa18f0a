package dev.flipper.workflow.control;

import dev.flipper.token.Token;
import dev.flipper.token.spi.TokenStore;
import java.util.List;

/**
 * Read and delete access to archived tokens, which the token master's interface does not offer (only the
 * store has them). {@code retry} of an archived instance and {@code cleanup} need it; the CLI opens the
 * master's database for it. Implementations are thread-safe.
 */
public interface ArchivedTokens {
  /** Archived tokens under the prefix, by name, then version (a name may have been archived more than once). */
  List<Token> query(String namePrefix);

  /** Deletes the archived tokens under a non-empty prefix for good; returns how many. */
  int delete(String namePrefix);

  static ArchivedTokens of(TokenStore store) {
    return new ArchivedTokens() {
      @Override
      public List<Token> query(String namePrefix) {
        return store.queryArchived(namePrefix);
      }

      @Override
      public int delete(String namePrefix) {
        return store.deleteArchived(namePrefix);
      }
    };
  }
}
