package dev.flipper.token.spi;

import dev.flipper.token.Token;
import dev.flipper.token.TokenException;
import java.util.List;
import java.util.Map;

/**
 * The version rules of modify and archive, shared by every store so that all report the same error
 * for the same request: the first failing token in request order (updates before deletes) decides.
 * Stateless.
 */
public final class TokenChecks {

  private TokenChecks() {}

  /**
   * Throws the error of the first update or delete that cannot apply over {@code storedVersions}
   * (name to version of the active tokens among the request's names; absent = no such token).
   */
  public static void checkModify(
      List<Token> updates, List<Token> deletes, Map<String, Long> storedVersions) {
    for (Token update : updates) {
      Long stored = storedVersions.get(update.name());
      if (stored == null) {
        if (update.hasVersion()) {
          throw TokenException.notFound(
              "token '"
                  + update.name()
                  + "' not found: the update names version "
                  + update.version()
                  + " but no such token exists (send no version to insert it)");
        }
      } else if (!update.hasVersion()) {
        throw TokenException.versionConflict(
            "token '"
                + update.name()
                + "' already exists with version "
                + stored
                + "; an insert (no version) needs a free name, an update the current version");
      } else if (stored != update.version()) {
        throw conflict(update, stored, "update");
      }
    }
    checkExisting(deletes, storedVersions, "delete");
  }

  /** Throws the error of the first token that cannot be archived over {@code storedVersions}. */
  public static void checkArchive(List<Token> tokens, Map<String, Long> storedVersions) {
    checkExisting(tokens, storedVersions, "archive");
  }

  private static void checkExisting(
      List<Token> tokens, Map<String, Long> storedVersions, String operation) {
    for (Token token : tokens) {
      Long stored = storedVersions.get(token.name());
      if (stored == null) {
        throw TokenException.notFound(
            "token '"
                + token.name()
                + "' not found ("
                + operation
                + " of version "
                + token.version()
                + ")");
      }
      if (stored != token.version()) {
        throw conflict(token, stored, operation);
      }
    }
  }

  private static TokenException conflict(Token token, long stored, String operation) {
    return TokenException.versionConflict(
        "token '"
            + token.name()
            + "' has version "
            + stored
            + ", the "
            + operation
            + " names version "
            + token.version()
            + ": it changed since it was read");
  }
}
