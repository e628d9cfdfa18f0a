package dev.flipper.token;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.text.DurationText;
import dev.flipper.token.spi.TokenStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The token master over a {@link TokenStore}: validates every request completely, then lets the
 * store check versions and write atomically. Holds no state of its own, so any number of services
 * in any number of processes may share one store; the store is the only authority. Thread-safe.
 *
 * <p><b>Waiting claims.</b> A {@link QueryAndOwnParams#waitTime() waiting} queryAndOwn that finds
 * nothing claimable blocks its thread until something may have become claimable, then tries again.
 * A modify through this service that writes an unowned token under its prefix wakes it at once.
 * Nothing tells this service about writes through other services (other masters over the same
 * database) or about leases that expire, so a waiting call also tries again every {@link
 * Builder#waitRecheckInterval waitRecheckInterval} (default 250 ms). See docs/tokens.md.
 *
 * <pre>{@code
 * TokenMaster master = TokenService.builder(store).build();
 * Token job = master.modify(ModifyParams.updating(Token.of("/workflow/wf/1/job/waiting/a", "{}"))).get(0);
 * }</pre>
 */
public final class TokenService implements TokenMaster {
  /** Default longest data, in characters. */
  public static final int DEFAULT_MAX_DATA_CHARS = 4 * 1024 * 1024;

  /** Default longest wait of a queryAndOwn. */
  public static final Duration DEFAULT_MAX_WAIT_TIME = Duration.ofSeconds(30);

  /**
   * The most archived tokens one {@link #queryArchived} page holds: a huge archive is read in
   * pages.
   */
  public static final int MAX_ARCHIVED_PAGE = 1000;

  /** Default interval at which a waiting queryAndOwn reads the store again without being woken. */
  public static final Duration DEFAULT_WAIT_RECHECK_INTERVAL = Duration.ofMillis(250);

  private final TokenStore store;
  private final Clock clock;
  private final int maxDataChars;
  private final Duration maxWaitTime;
  private final long waitRecheckNanos;
  private final ClaimWaiters waiters = new ClaimWaiters();

  private TokenService(Builder builder) {
    this.store = builder.store;
    this.clock = builder.clock;
    this.maxDataChars = builder.maxDataChars;
    this.maxWaitTime = builder.maxWaitTime;
    this.waitRecheckNanos = builder.waitRecheckInterval.toNanos();
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

  /** The longest wait a queryAndOwn gets; longer ones are shortened to it. */
  public Duration maxWaitTime() {
    return maxWaitTime;
  }

  public Duration waitRecheckInterval() {
    return Duration.ofNanos(waitRecheckNanos);
  }

  /** How many queryAndOwn calls are waiting now (a gauge). */
  public int waitingClaims() {
    return waiters.count();
  }

  /**
   * Ends every queryAndOwn waiting now: each returns what it has, nothing, once its claim attempt
   * in progress (if any) is done. Calls that start later wait as usual. A server in front of this
   * service calls it when it shuts down, so that waiting clients get an empty answer instead of a
   * broken connection.
   */
  public void endWaits() {
    waiters.endAll();
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
        throw TokenException.inputError(
            "token '"
                + update.name()
                + "' has version "
                + update.version()
                + "; versions are positive, or 0 for an insert");
      }
    }
    for (Token delete : params.deletes()) {
      checkToken(delete, "delete", seen);
      requireVersion(delete, "delete");
    }
    long nowMillis = clock.millis();
    List<Token> written = store.modify(params.updates(), params.deletes(), nowMillis);
    wakeWaiters(written, nowMillis);
    return written;
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
      throw TokenException.inputError(
          "queryAndOwn needs a non-empty owner (who claims the tokens)");
    }
    checkOwner(params.owner(), "queryAndOwn");
    checkExpirationTime(params.expirationTime(), "queryAndOwn");
    if (params.waitTime().isNegative()) {
      throw TokenException.inputError(
          "queryAndOwn has waitTime "
              + params.waitTime()
              + "; use zero (answer at"
              + " once) or a positive duration (at most "
              + maxWaitTime
              + " is used)");
    }
    Query query = params.query();
    if (query == null) {
      return List.of(); // the original claims nothing without a query
    }
    checkQuery(query);
    return params.waits() ? claimWaiting(params) : claimNow(params);
  }

  private List<Token> claimNow(QueryAndOwnParams params) {
    if (!canMatch(params.query())) {
      return List.of();
    }
    long nowMillis = clock.millis();
    List<Token> claimed = List.copyOf(store.queryAndOwn(params, nowMillis));
    wakeWaiters(
        claimed, nowMillis); // a "claim" with a lease already over leaves the tokens claimable
    return claimed;
  }

  /**
   * Claims until something is claimed or the wait is over. Registers before the first attempt, so a
   * change committed after an attempt's read is never missed (see {@link ClaimWaiters}). A query
   * that can match nothing waits too, without reading the store, so that a caller calling again in
   * a loop does not spin.
   */
  private List<Token> claimWaiting(QueryAndOwnParams params) {
    Duration wait = params.waitTime().compareTo(maxWaitTime) > 0 ? maxWaitTime : params.waitTime();
    long deadline =
        System.nanoTime() + wait.toNanos(); // a real-time bound, whatever the injected clock says
    ClaimWaiters.Waiter waiter = waiters.register(params.query().namePrefix());
    try {
      while (true) {
        List<Token> claimed = claimNow(params);
        long left = deadline - System.nanoTime();
        if (!claimed.isEmpty() || left <= 0) {
          return claimed;
        }
        if (!waiter.await(Math.min(left, waitRecheckNanos))) {
          return List.of(); // ended by endWaits()
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread()
          .interrupt(); // the caller's thread is being stopped: answer nothing, keep the flag
      return List.of();
    } finally {
      waiters.remove(waiter);
    }
  }

  /**
   * Wakes the waiting claims that the written tokens may interest: those unowned now (leases need
   * no wake-up).
   */
  private void wakeWaiters(List<Token> written, long nowMillis) {
    if (written.isEmpty() || waiters.count() == 0) {
      return;
    }
    long nowSeconds = Math.floorDiv(nowMillis, 1000);
    List<String> claimable = new ArrayList<>();
    for (Token token : written) {
      if (!token.isOwnedAt(nowSeconds)) {
        claimable.add(token.name());
      }
    }
    waiters.changed(claimable);
  }

  @Override
  public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
    if (namePrefix == null || namePrefix.isEmpty() || !TokenNames.canOccurInName(namePrefix)) {
      return Collections.emptySortedMap();
    }
    // A suffix no name can contain is never found: every name is its own group.
    String suffix =
        groupSuffix == null || groupSuffix.isEmpty() || !TokenNames.canOccurInName(groupSuffix)
            ? null
            : groupSuffix;
    return Collections.unmodifiableSortedMap(new TreeMap<>(store.group(namePrefix, suffix)));
  }

  @Override
  public void archive(List<Token> tokens) {
    if (tokens == null || tokens.isEmpty()) {
      return;
    }
    checkArchive(tokens);
    store.archive(List.copyOf(tokens), clock.millis());
  }

  @Override
  public void archive(List<Token> tokens, RunArchive run) {
    if (run == null) {
      throw TokenException.inputError("an archive with run history needs the run");
    }
    checkArchive(tokens == null ? List.of() : tokens);
    store.archive(tokens == null ? List.of() : List.copyOf(tokens), run, clock.millis());
  }

  @Override
  public RunPage queryRuns(RunQuery query) {
    if (query == null) {
      throw TokenException.inputError("queryRuns needs a query");
    }
    return store.queryRuns(query);
  }

  @Override
  public ExecutionPage queryExecutions(ExecutionQuery query) {
    if (query == null) {
      throw TokenException.inputError("queryExecutions needs a query");
    }
    return store.queryExecutions(query);
  }

  @Override
  public int deleteRun(String workflow, String instance) {
    if (workflow == null || workflow.isEmpty() || instance == null || instance.isEmpty()) {
      throw TokenException.inputError(
          "deleteRun needs a workflow and an instance; got '" + workflow + "', '" + instance + "'");
    }
    return store.deleteRun(workflow, instance);
  }

  private static void checkArchive(List<Token> tokens) {
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
        throw TokenException.inputError(
            "token '" + token.name() + "' appears twice in one archive request");
      }
      requireVersion(token, "archive");
    }
  }

  @Override
  public List<Token> queryArchived(String namePrefix, Token after, int maxTokens) {
    if (maxTokens < 1 || maxTokens > MAX_ARCHIVED_PAGE) {
      throw TokenException.inputError(
          "queryArchived of prefix '"
              + namePrefix
              + "' has maxTokens "
              + maxTokens
              + "; use 1 to "
              + MAX_ARCHIVED_PAGE
              + " and read the rest in further pages");
    }
    String prefix = namePrefix == null ? "" : namePrefix;
    if (!TokenNames.canOccurInName(prefix)) {
      return List.of();
    }
    // The store answers the whole prefix; the page is cut here.
    List<Token> page = new ArrayList<>(Math.min(maxTokens, 64));
    for (Token token : store.queryArchived(prefix)) {
      if (after == null || isAfter(token, after)) {
        page.add(token);
        if (page.size() == maxTokens) {
          break;
        }
      }
    }
    return List.copyOf(page);
  }

  private static boolean isAfter(Token token, Token after) {
    int byName = token.name().compareTo(after.name());
    return byName > 0 || byName == 0 && token.version() > after.version();
  }

  @Override
  public int deleteArchived(String namePrefix) {
    if (namePrefix == null || namePrefix.isEmpty()) {
      throw TokenException.inputError(
          "deleteArchived needs a non-empty name prefix; an empty one would delete"
              + " the whole archive");
    }
    if (!TokenNames.canOccurInName(namePrefix)
        || namePrefix.length() > TokenNames.MAX_NAME_LENGTH) {
      throw TokenException.inputError(
          "deleteArchived: prefix '"
              + namePrefix
              + "' matches no token name; names"
              + " are visible ASCII, at most "
              + TokenNames.MAX_NAME_LENGTH
              + " characters");
    }
    return store.deleteArchived(namePrefix);
  }

  private void checkToken(Token token, String operation, Set<String> seen) {
    if (token == null) {
      throw TokenException.inputError(
          "the modify request holds a null token in its " + operation + "s");
    }
    String problem = TokenNames.problem(token.name());
    if (problem != null) {
      throw TokenException.inputError(operation + ": " + problem);
    }
    if (!seen.add(token.name())) {
      throw TokenException.inputError(
          "token '"
              + token.name()
              + "' appears twice in one modify request;"
              + " each name may be updated or deleted once per request");
    }
    if (!Double.isFinite(token.priority())) {
      throw TokenException.inputError(
          "token '"
              + token.name()
              + "' has priority "
              + token.priority()
              + "; priorities must be finite numbers");
    }
    checkOwner(token.owner(), "token '" + token.name() + "'");
    if (token.data() != null && token.data().length() > maxDataChars) {
      throw TokenException.inputError(
          "token '"
              + token.name()
              + "' has "
              + token.data().length()
              + " characters of data; at most "
              + maxDataChars
              + " are allowed (TokenService maxDataChars)");
    }
  }

  private static void checkOwner(String owner, String where) {
    if (owner != null && owner.length() > TokenNames.MAX_OWNER_LENGTH) {
      throw TokenException.inputError(
          where
              + ": the owner is "
              + owner.length()
              + " characters long; at most "
              + TokenNames.MAX_OWNER_LENGTH
              + " are allowed");
    }
  }

  /**
   * A claim's lease end in epoch seconds: a negative one would claim for a lease that ended before
   * 1970. (modify stores any value as sent, as Pinball's master: there a negative one simply reads
   * as not owned.)
   */
  private static void checkExpirationTime(long expirationTime, String where) {
    if (expirationTime < 0) {
      throw TokenException.inputError(
          where
              + " has expirationTime "
              + expirationTime
              + "; use the lease end in epoch seconds (>= 0)");
    }
  }

  private static void requireVersion(Token token, String operation) {
    if (!token.hasVersion()) {
      throw TokenException.inputError(
          "token '"
              + token.name()
              + "' does not have a version set; a "
              + operation
              + " needs the token's current version");
    }
  }

  /** False if the query cannot return anything: a prefix no name can start with, or maxTokens 0. */
  private static boolean canMatch(Query query) {
    return TokenNames.canOccurInName(query.namePrefix())
        && !(query.isLimited() && query.maxTokens() == 0);
  }

  private static void checkQuery(Query query) {
    if (query == null) {
      throw TokenException.inputError("the query list holds a null query");
    }
    if (query.isLimited() && query.maxTokens() < 0) {
      throw TokenException.inputError(
          "query of prefix '"
              + query.namePrefix()
              + "' has maxTokens "
              + query.maxTokens()
              + "; use a number >= 0, or none for all matches");
    }
  }

  /** Settings of a {@link TokenService}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final TokenStore store;
    private Clock clock = Clock.systemUTC();
    private int maxDataChars = DEFAULT_MAX_DATA_CHARS;
    private Duration maxWaitTime = DEFAULT_MAX_WAIT_TIME;
    private Duration waitRecheckInterval = DEFAULT_WAIT_RECHECK_INTERVAL;

    private Builder(TokenStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * The master's clock: lease checks (whole seconds) and the floor of new versions. Default:
     * system UTC.
     */
    public Builder clock(Clock newClock) {
      this.clock = Objects.requireNonNull(newClock, "clock");
      return this;
    }

    /** Longest token data accepted, in characters; default 4 Mi. */
    public Builder maxDataChars(int newMaxDataChars) {
      this.maxDataChars = newMaxDataChars;
      return this;
    }

    /**
     * The longest a waiting queryAndOwn waits; a longer {@link QueryAndOwnParams#waitTime()} is
     * shortened to this (not an error: a wait may always end early, and callers call again). Zero:
     * claims never wait. A waiting call holds a thread (over Thrift, its connection's thread) for
     * up to this long. Default 30 s.
     */
    public Builder maxWaitTime(Duration newMaxWaitTime) {
      this.maxWaitTime = Objects.requireNonNull(newMaxWaitTime, "maxWaitTime");
      return this;
    }

    /**
     * How often a waiting queryAndOwn reads the store again although no modify through this service
     * woke it: the delay until it sees tokens written through other masters over the same database,
     * and leases that expire. Each waiting call costs one claim attempt (one indexed read when
     * nothing is claimable) per interval. With a single master, writes wake waiters at once, and
     * only lease expiries wait for this. Default 250 ms.
     */
    public Builder waitRecheckInterval(Duration newInterval) {
      this.waitRecheckInterval = Objects.requireNonNull(newInterval, "waitRecheckInterval");
      return this;
    }

    public TokenService build() {
      if (maxDataChars < 1) {
        throw new IllegalArgumentException(
            "maxDataChars is " + maxDataChars + "; it must be at least 1");
      }
      if (maxWaitTime.isNegative() || maxWaitTime.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException(
            "maxWaitTime is "
                + DurationText.format(maxWaitTime)
                + "; use 0 (claims never wait) up to"
                + " 1 hour; waits of seconds are usual (default "
                + DurationText.format(DEFAULT_MAX_WAIT_TIME)
                + ")");
      }
      if (waitRecheckInterval.compareTo(Duration.ofMillis(1)) < 0
          || waitRecheckInterval.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException(
            "waitRecheckInterval is "
                + DurationText.format(waitRecheckInterval)
                + "; use 1 ms to 1 min"
                + " (default "
                + DurationText.format(DEFAULT_WAIT_RECHECK_INTERVAL)
                + "; other masters' writes are seen this late)");
      }
      return new TokenService(this);
    }
  }
}
