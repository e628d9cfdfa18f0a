package dev.flipper.workflow.tokens;

import dev.flipper.token.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a list read found: the items it understood and the tokens it could not ({@link
 * DamagedToken}), each in the order read. Immutable.
 */
public record Listing<T>(List<T> items, List<DamagedToken> damaged) {
  public Listing {
    items = List.copyOf(items);
    damaged = List.copyOf(damaged);
  }

  /** Each token through {@code decoder}; one that fails becomes a damaged entry. */
  public static <T> Listing<T> decode(List<Token> tokens, Function<Token, T> decoder) {
    List<T> items = new ArrayList<>();
    List<DamagedToken> damaged = new ArrayList<>();
    for (Token token : tokens) {
      try {
        items.add(DamagedToken.decode(token, decoder));
      } catch (DamagedTokenException e) {
        damaged.add(e.damage());
      }
    }
    return new Listing<>(items, damaged);
  }
}
