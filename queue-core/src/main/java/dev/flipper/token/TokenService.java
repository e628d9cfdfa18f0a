package dev.flipper.token;

import dev.flipper.token.spi.TokenStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The token master over a {@link TokenStore}: validates every request completely, then lets the store check
 * versions and write atomically. Holds no state of its own, so any number of services in any number of
 * processes may share one store; the store is the only authority. Thread-safe.
 *
 * <pre>{@code
 * TokenMaster master = TokenService.builder(store).build();
 * Token job = master.modify(ModifyParams.updating(Token.of("/workflow/wf/1/job/waiting/a", "{}"))).get(0);
 * }</pre>
 */
public final class TokenService implements TokenMaster {
  /** Default longest data, in characters. */
  public static final int DEFAULT_MAX_DATA_CHARS = 4 * 1024 * 1024;

  private final TokenStore store;
  private final Clock clock;
  private final int maxDataChars;

  private TokenService(Builder builder) {
    this.store = builder.store;
    this.clock = builder.clock;
    this.maxDataChars = builder.maxDataChars;
  }

  public static Builder builder(TokenStore store) {
    return new Builder(store);
  }

  public TokenStore store() {
    return store;
  }

  public Clock clock() {
    return clock;
  }

  @Override
  public List<Token> modify(ModifyParams params) {
    if (params == null) {
      throw TokenException.inputError("a modify request is required");
    }
    if (params.isEmpty()) {
      return List.of();
    }
    Set<String> seen = new HashSet<>();
    for (Token update : params.updates()) {
      checkToken(update, "update", seen);
      if (update.version() < 0) {
        throw TokenException.inputError("token '" + update.name() + "' has version " + update.version()
            + "; versions are positive, or 0 for an insert");
      }
    }
    for (Token delete : params.deletes()) {
      checkToken(delete, "delete", seen);
      requireVersion(delete, "delete");
    }
    return store.modify(params.updates(), params.deletes(), clock.millis());
  }

  @Override
  public List<List<Token>> query(List<Query> queries) {
    if (queries == null) {
      return List.of();
    }
    List<Query> answerable = new ArrayList<>();
    for (Query query : queries) {
      checkQuery(query);
      if (canMatch(query)) {
        answerable.add(query);
      }
    }
    List<List<Token>> answers = answerable.isEmpty() ? List.of() : store.query(answerable);
    List<List<Token>> results = new ArrayList<>(queries.size());
    int next = 0;
    for (Query query : queries) {
      results.add(canMatch(query) ? List.copyOf(answers.get(next++)) : List.of());
    }
    return Collections.unmodifiableList(results);
  }

  @Override
  public List<Token> queryAndOwn(QueryAndOwnParams params) {
    if (params == null) {
      throw TokenException.inputError("a queryAndOwn request is required");
    }
    if (params.owner() == null || params.owner().isEmpty()) {
      throw TokenException.inputError("queryAndOwn needs a non-empty owner (who claims the tokens)");
    }
    checkOwner(params.owner(), "queryAndOwn");
    Query query = params.query();
    if (query == null) {
      return List.of(); // the original claims nothing without a query
    }
    checkQuery(query);
    if (!canMatch(query)) {
      return List.of();
    }
    return List.copyOf(store.queryAndOwn(params, clock.millis()));
  }

  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    if (namePrefix == null || namePrefix.isEmpty() || !TokenNames.canOccurInName(namePrefix)) {
      return Collections.emptySortedMap();
    }
    // A suffix no name can contain is never found: every name is its own group.
    String suffix = groupSuffix == null || groupSuffix.isEmpty() || !TokenNames.canOccurInName(groupSuffix)
        ? null : groupSuffix;
    return Collections.unmodifiableSortedMap(new TreeMap<>(store.group(namePrefix, suffix)));
  }

  @Override
  public void archive(List<Token> tokens) {
    if (tokens == null || tokens.isEmpty()) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (Token token : tokens) {
      if (token == null) {
        throw TokenException.inputError("the archive request holds a null token");
      }
      String problem = TokenNames.problem(token.name());
      if (problem != null) {
        throw TokenException.inputError("archive: " + problem);
      }
      if (!seen.add(token.name())) {
        throw TokenException.inputError("token '" + token.name() + "' appears twice in one archive request");
      }
      requireVersion(token, "archive");
    }
    store.archive(List.copyOf(tokens), clock.millis());
  }

  private void checkToken(Token token, String operation, Set<String> seen) {
    if (token == null) {
      throw TokenException.inputError("the modify request holds a null token in its " + operation + "s");
    }
    String problem = TokenNames.problem(token.name());
    if (problem != null) {
      throw TokenException.inputError(operation + ": " + problem);
    }
    if (!seen.add(token.name())) {
      throw TokenException.inputError("token '" + token.name() + "' appears twice in one modify request;"
          + " each name may be updated or deleted once per request");
    }
    if (!Double.isFinite(token.priority())) {
      throw TokenException.inputError("token '" + token.name() + "' has priority " + token.priority()
          + "; priorities must be finite numbers");
    }
    checkOwner(token.owner(), "token '" + token.name() + "'");
    if (token.data() != null && token.data().length() > maxDataChars) {
      throw TokenException.inputError("token '" + token.name() + "' has " + token.data().length()
          + " characters of data; at most " + maxDataChars + " are allowed (TokenService maxDataChars)");
    }
  }

  private static void checkOwner(String owner, String where) {
    if (owner != null && owner.length() > TokenNames.MAX_OWNER_LENGTH) {
      throw TokenException.inputError(where + ": the owner is " + owner.length() + " characters long; at most "
          + TokenNames.MAX_OWNER_LENGTH + " are allowed");
    }
  }

  private static void requireVersion(Token token, String operation) {
    if (!token.hasVersion()) {
      throw TokenException.inputError("token '" + token.name() + "' does not have a version set; a " + operation
          + " needs the token's current version");
    }
  }

  /** False if the query cannot return anything: a prefix no name can start with, or maxTokens 0. */
  private static boolean canMatch(Query query) {
    return TokenNames.canOccurInName(query.namePrefix()) && !(query.isLimited() && query.maxTokens() == 0);
  }

  private static void checkQuery(Query query) {
    if (query == null) {
      throw TokenException.inputError("the query list holds a null query");
    }
    if (query.isLimited() && query.maxTokens() < 0) {
      throw TokenException.inputError("query of prefix '" + query.namePrefix() + "' has maxTokens "
          + query.maxTokens() + "; use a number >= 0, or none for all matches");
    }
  }

  /** Settings of a {@link TokenService}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final TokenStore store;
    private Clock clock = Clock.systemUTC();
    private int maxDataChars = DEFAULT_MAX_DATA_CHARS;

    private Builder(TokenStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The master's clock: lease checks (whole seconds) and the floor of new versions. Default: system UTC. */
    public Builder clock(Clock newClock) {
      this.clock = Objects.requireNonNull(newClock, "clock");
      return this;
    }

    /** Longest token data accepted, in characters; default 4 Mi. */
    public Builder maxDataChars(int newMaxDataChars) {
      this.maxDataChars = newMaxDataChars;
      return this;
    }

    public TokenService build() {
      if (maxDataChars < 1) {
        throw new IllegalArgumentException("maxDataChars is " + maxDataChars + "; it must be at least 1");
      }
      return new TokenService(this);
    }
  }
}
