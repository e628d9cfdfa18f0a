package dev.flipper.workflow.ui;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.DamagedDefinitionException;
import dev.flipper.workflow.engine.Definitions;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.tokens.DamagedToken;
import dev.flipper.workflow.tokens.Listing;
import dev.flipper.workflow.tokens.TokenLayout;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stored definitions for the pages, parsed once per text: the definition tokens are read from
 * the master at every call (so a page is never stale), but a token whose text is the one parsed
 * last time is not parsed again. Parsing (YAML, version check) is what made a workflows list with
 * one 2 MB description take over a second; comparing the text costs a fraction of a millisecond.
 * Like the engine's listing, a damaged definition is a damaged entry (warned about once).
 * Thread-safe.
 */
final class DefinitionCache {
  private record Parsed(String data, StoredDefinition definition) {}

  private final TokenMaster master;
  private final Map<String, Parsed> parsed = new ConcurrentHashMap<>();
  private final AtomicLong parses = new AtomicLong();

  DefinitionCache(TokenMaster master) {
    this.master = master;
  }

  /** Every stored definition, the damaged ones as damaged entries. */
  Listing<StoredDefinition> listing() {
    List<Token> tokens = master.query(Query.prefix(TokenLayout.DEFINITIONS));
    parsed.keySet().retainAll(tokens.stream().map(Token::name).toList());
    return Listing.decode(tokens, this::definition);
  }

  /**
   * The workflow's stored definition, if any.
   *
   * @throws DamagedDefinitionException if it does not parse or its text does not match its version
   */
  Optional<StoredDefinition> get(String workflow) {
    String name = TokenLayout.definition(workflow);
    return master.query(Query.prefix(name)).stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .map(t -> DamagedToken.decode(t, this::definition));
  }

  /** How many times a definition was parsed (tests). */
  long parses() {
    return parses.get();
  }

  private StoredDefinition definition(Token token) {
    Parsed last = parsed.get(token.name());
    if (last != null && last.data().equals(token.data())) {
      return last.definition();
    }
    StoredDefinition definition = Definitions.decode(token);
    parses.incrementAndGet();
    parsed.put(token.name(), new Parsed(token.data(), definition));
    return definition;
  }
}
