package dev.flipper.token.spi;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import java.util.List;
import java.util.SortedMap;

/**
 * Durable storage of active and archived tokens, and the source of versions. Thread-safe; several
 * store instances (in several processes) over the same storage must behave as one: that is how
 * several masters share a database.
 *
 * <p><b>Versions.</b> Every version a store writes is greater than every version any instance over
 * the same storage wrote before, across restarts, and is never reused; a write that commits later
 * has greater versions. Versions are at least the {@code nowMillis} passed in (so they read roughly
 * as times) and above 0.
 *
 * <p>Arguments arrive validated by the service: names valid, no name twice in one call, deletes and
 * archives carry versions, prefixes only hold characters that names may hold.
 */
public interface TokenStore extends AutoCloseable {

  /**
   * Atomically checks the request against the stored versions with {@link TokenChecks#checkModify}
   * (throwing its error and changing nothing) and then writes: every update gets a fresh version,
   * deletes are removed. Returns the updates with their new versions, in request order.
   */
  List<Token> modify(List<Token> updates, List<Token> deletes, long nowMillis);

  /**
   * For each query, the active tokens whose name starts with its prefix: with {@code maxTokens ==
   * null} all of them in name order, otherwise the first {@code maxTokens} (> 0) by priority
   * descending, then name. All queries of one call read the same committed state, as the original
   * master answered them under one lock.
   */
  List<List<Token>> query(List<Query> queries);

  /**
   * Atomically claims up to {@code maxTokens} (null: all) active tokens under the prefix that are
   * not owned at {@code nowMillis} (see {@link Token#isOwned}), taking them by priority descending,
   * then name; sets owner and expiration, gives each a fresh version and returns them in that
   * order. Must write nothing when it claims nothing, must not read more than the prefix's tokens,
   * and must not block on tokens other calls are claiming (skip them).
   */
  List<Token> queryAndOwn(QueryAndOwnParams params, long nowMillis);

  /** Group counts as {@link dev.flipper.token.TokenMaster#group} defines them; prefix non-empty. */
  SortedMap<String, Integer> group(String namePrefix, String groupSuffix);

  /**
   * Atomically checks the tokens with {@link TokenChecks#checkArchive} and moves them, unchanged
   * (versions included), from the active to the archived set. {@code nowMillis} is recorded as the
   * archive time.
   */
  void archive(List<Token> tokens, long nowMillis);

  /**
   * Archived tokens under the prefix, by name, then version. The same name may have been archived
   * twice.
   */
  List<Token> queryArchived(String namePrefix);

  /** Deletes the archived tokens under a non-empty prefix for good; returns how many. */
  int deleteArchived(String namePrefix);

  /**
   * {@link #archive(List, long)}, and in the same transaction replaces the run history's record of
   * {@code run}'s instance (its run row and every execution row) with {@code run}.
   */
  void archive(List<Token> tokens, RunArchive run, long nowMillis);

  /** One page of runs: filtered, sorted as the query says (ties by workflow, then instance). */
  RunPage queryRuns(RunQuery query);

  /** One page of executions, newest start first (ties by instance, job, execution). */
  ExecutionPage queryExecutions(ExecutionQuery query);

  /** Deletes one instance's run and execution rows; returns how many rows went. */
  int deleteRun(String workflow, String instance);

  /** Releases connections; idempotent. */
  @Override
  void close();
}
