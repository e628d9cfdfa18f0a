package dev.flipper.token.memory;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenNames;
import dev.flipper.token.spi.TokenChecks;
import dev.flipper.token.spi.TokenGroups;
import dev.flipper.token.spi.TokenStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Token storage in memory, for tests and embedding: the equivalent of Pinball's EphemeralStore. One
 * lock serialises all operations, the run history's ({@link RunIndex}) included. {@link
 * #sharingStorage()} opens a second store over the same tokens, as a second master (or a restarted
 * one) over one database would. Thread-safe.
 */
public final class InMemoryTokenStore implements TokenStore {
  /** Claim and top-k order: priority descending, then name. */
  static final Comparator<Token> PRIORITY_ORDER =
      Comparator.comparingDouble(Token::priority).reversed().thenComparing(Token::name);

  private final Storage storage;

  private InMemoryTokenStore(Storage storage) {
    this.storage = storage;
  }

  public static InMemoryTokenStore create() {
    return new InMemoryTokenStore(new Storage());
  }

  /** A new store instance over this one's tokens and version counter. */
  public InMemoryTokenStore sharingStorage() {
    return new InMemoryTokenStore(storage);
  }

  /**
   * Makes every call fail with UNKNOWN (false) or work again (true), on every store sharing this
   * storage, to test how callers handle an unreachable store.
   */
  public void setReachable(boolean reachable) {
    synchronized (storage) {
      storage.reachable = reachable;
    }
  }

  @Override
  public List<Token> modify(List<Token> updates, List<Token> deletes, long nowMillis) {
    synchronized (storage) {
      storage.checkReachable();
      Map<String, Long> stored = new HashMap<>();
      addVersions(updates, stored);
      addVersions(deletes, stored);
      TokenChecks.checkModify(updates, deletes, stored);
      long first = storage.allocateVersions(updates.size(), nowMillis);
      List<Token> written = new ArrayList<>(updates.size());
      for (Token update : updates) {
        Token token = update.withVersion(first++);
        storage.active.put(token.name(), token);
        written.add(token);
      }
      for (Token delete : deletes) {
        storage.active.remove(delete.name());
      }
      return written;
    }
  }

  @Override
  public List<List<Token>> query(List<Query> queries) {
    synchronized (storage) {
      storage.checkReachable();
      List<List<Token>> answers = new ArrayList<>(queries.size());
      for (Query query : queries) {
        Collection<Token> matches = storage.active(query.namePrefix()).values();
        answers.add(
            query.maxTokens() == null
                ? new ArrayList<>(matches)
                : matches.stream().sorted(PRIORITY_ORDER).limit(query.maxTokens()).toList());
      }
      return answers;
    }
  }

  @Override
  public List<Token> queryAndOwn(QueryAndOwnParams params, long nowMillis) {
    synchronized (storage) {
      storage.checkReachable();
      long nowSeconds = Math.floorDiv(nowMillis, 1000);
      Integer max = params.query().maxTokens();
      List<Token> chosen =
          storage.active(params.query().namePrefix()).values().stream()
              .filter(token -> !token.isOwnedAt(nowSeconds))
              .sorted(PRIORITY_ORDER)
              .limit(max == null ? Long.MAX_VALUE : max)
              .toList();
      if (chosen.isEmpty()) {
        return List.of();
      }
      long next = storage.allocateVersions(chosen.size(), nowMillis);
      List<Token> claimed = new ArrayList<>(chosen.size());
      for (Token token : chosen) {
        Token owned = token.withOwner(params.owner(), params.expirationTime()).withVersion(next++);
        storage.active.put(owned.name(), owned);
        claimed.add(owned);
      }
      return claimed;
    }
  }

  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    synchronized (storage) {
      storage.checkReachable();
      SortedMap<String, Integer> counts = new TreeMap<>();
      for (String name : storage.active(namePrefix).keySet()) {
        counts.merge(TokenGroups.groupOf(name, namePrefix.length(), groupSuffix), 1, Integer::sum);
      }
      return counts;
    }
  }

  @Override
  public void archive(List<Token> tokens, long nowMillis) {
    synchronized (storage) {
      storage.checkReachable();
      Map<String, Long> stored = new HashMap<>();
      addVersions(tokens, stored);
      TokenChecks.checkArchive(tokens, stored);
      for (Token token : tokens) {
        Token moved = storage.active.remove(token.name());
        storage
            .archived
            .computeIfAbsent(moved.name(), k -> new TreeMap<>())
            .put(moved.version(), moved);
      }
    }
  }

  @Override
  public List<Token> queryArchived(String namePrefix) {
    synchronized (storage) {
      storage.checkReachable();
      List<Token> result = new ArrayList<>();
      storage.archived(namePrefix).values().forEach(versions -> result.addAll(versions.values()));
      return result;
    }
  }

  @Override
  public int deleteArchived(String namePrefix) {
    if (namePrefix == null || namePrefix.isEmpty()) {
      throw TokenException.inputError("deleteArchived needs a non-empty name prefix");
    }
    synchronized (storage) {
      storage.checkReachable();
      NavigableMap<String, NavigableMap<Long, Token>> matches = storage.archived(namePrefix);
      int count = matches.values().stream().mapToInt(Map::size).sum();
      matches.clear();
      return count;
    }
  }

  @Override
  public void archive(List<Token> tokens, RunArchive run, long nowMillis) {
    synchronized (storage) {
      archive(tokens, nowMillis); // throws, recording nothing, if the tokens cannot move
      storage.runs.replace(run);
    }
  }

  @Override
  public RunPage queryRuns(RunQuery query) {
    synchronized (storage) {
      storage.checkReachable();
      return storage.runs.query(query);
    }
  }

  @Override
  public ExecutionPage queryExecutions(ExecutionQuery query) {
    synchronized (storage) {
      storage.checkReachable();
      return storage.runs.query(query);
    }
  }

  @Override
  public int deleteRun(String workflow, String instance) {
    synchronized (storage) {
      storage.checkReachable();
      return storage.runs.delete(workflow, instance);
    }
  }

  @Override
  public void close() {
    // Nothing to release; the storage lives as long as some store refers to it.
  }

  private void addVersions(List<Token> tokens, Map<String, Long> into) {
    for (Token token : tokens) {
      Token stored = storage.active.get(token.name());
      if (stored != null) {
        into.put(stored.name(), stored.version());
      }
    }
  }

  /** The tokens and version counter that stores created by {@link #sharingStorage()} share. */
  private static final class Storage {
    final NavigableMap<String, Token> active = new TreeMap<>();
    final NavigableMap<String, NavigableMap<Long, Token>> archived = new TreeMap<>();
    final RunIndex runs = new RunIndex();
    long lastVersion;
    boolean reachable = true;

    void checkReachable() {
      if (!reachable) {
        throw new TokenException(
            TokenErrorCode.UNKNOWN, "the in-memory token store is set unreachable");
      }
    }

    /**
     * Reserves n versions above every one issued and at least {@code nowMillis}; returns the first.
     */
    long allocateVersions(int n, long nowMillis) {
      lastVersion = Math.max(lastVersion + n, nowMillis);
      return lastVersion - n + 1;
    }

    NavigableMap<String, Token> active(String prefix) {
      return prefix.isEmpty()
          ? active
          : active.subMap(prefix, true, TokenNames.upperBound(prefix), false);
    }

    NavigableMap<String, NavigableMap<Long, Token>> archived(String prefix) {
      return prefix.isEmpty()
          ? archived
          : archived.subMap(prefix, true, TokenNames.upperBound(prefix), false);
    }
  }
}
