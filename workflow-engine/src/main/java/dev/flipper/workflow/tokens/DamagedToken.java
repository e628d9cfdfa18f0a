package dev.flipper.workflow.tokens;

import dev.flipper.token.Token;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A token a read could not understand: data that is not what its name says (edited by hand, cut
 * short) or a value this release does not know (an instance status written by a newer one). Lists,
 * pages and commands show it as {@link #row} instead of failing, so one bad token never hides the
 * others (docs/workflows.md, "Damaged tokens"). Immutable.
 *
 * @param name the token's full name, e.g. {@code /workflow/etl/1764000000000/instance}
 * @param reason what is wrong, on one line
 */
public record DamagedToken(String name, String reason) {
  private static final Logger log = LoggerFactory.getLogger(DamagedToken.class);

  /** Token name → the reason last warned about: one warning per token, not per read. */
  private static final Map<String, String> WARNED = new ConcurrentHashMap<>();

  /** A bound on {@link #WARNED}; past it the memory starts over (and warns again). */
  private static final int MAX_WARNED = 10_000;

  public DamagedToken {
    reason = firstLine(reason);
  }

  /** {@code DAMAGED <name>: <reason>}, as lists and commands print it. */
  public String row() {
    return "DAMAGED " + name + ": " + reason;
  }

  /**
   * What {@code decoder} makes of {@code token}; if it fails, a {@link DamagedTokenException}
   * naming the token with the failure's message as reason, warned about once per token.
   */
  public static <T> T decode(Token token, Function<Token, T> decoder) {
    try {
      return decoder.apply(token);
    } catch (DamagedTokenException e) {
      throw warned(e);
    } catch (RuntimeException e) {
      String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      throw warned(new DamagedTokenException(new DamagedToken(token.name(), reason)));
    }
  }

  private static DamagedTokenException warned(DamagedTokenException e) {
    DamagedToken damage = e.damage();
    if (!damage.reason().equals(WARNED.put(damage.name(), damage.reason()))) {
      if (WARNED.size() > MAX_WARNED) {
        WARNED.clear();
      }
      log.warn("{} (shown as DAMAGED until repaired)", e.getMessage());
    }
    return e;
  }

  private static String firstLine(String text) {
    String line = text == null ? "" : text.strip();
    int end = line.indexOf('\n');
    return (end < 0 ? line : line.substring(0, end)).strip();
  }
}
