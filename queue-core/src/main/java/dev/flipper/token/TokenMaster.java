package dev.flipper.token;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import java.util.List;
import java.util.SortedMap;

/**
 * The token master's operations, Pinball's {@code TokenMasterService}: the one authority over
 * workflow state. Implemented in-process by {@link TokenService} over a store and remotely by the
 * Thrift client of workflow-master; both behave the same. Implementations are thread-safe.
 *
 * <p>Every operation throws {@link TokenException}: VERSION_CONFLICT, NOT_FOUND and INPUT_ERROR
 * with a message naming the token, UNKNOWN for anything else.
 */
public interface TokenMaster {

  /**
   * Applies every update and delete or none (see {@link ModifyParams}); returns the written tokens
   * in request order, each with a new version and its other fields as sent. Ownership is not
   * checked: anyone holding the current version may change or delete an owned token.
   */
  List<Token> modify(ModifyParams params);

  /**
   * One list per query, in request order; see {@link Query} for the order inside each list.
   * Read-only.
   */
  List<List<Token>> query(List<Query> queries);

  /** The tokens of one query. */
  default List<Token> query(Query query) {
    return query(List.of(query)).get(0);
  }

  /**
   * Claims up to {@code maxTokens} tokens under the prefix that nobody owns now, highest priority
   * first (ties by name), atomically; returns them with their new owner, expiration and version. A
   * claim of nothing writes nothing. Under concurrent claims a call may return fewer tokens than
   * are claimable; call again.
   *
   * <p>With a positive {@link QueryAndOwnParams#waitTime()}, a call that finds nothing claimable
   * blocks until it claims something or the wait ends (then it returns empty); see {@link
   * TokenService} for what wakes it.
   */
  List<Token> queryAndOwn(QueryAndOwnParams params);

  /**
   * Counts the tokens under {@code namePrefix} by group. A token's group is its name up to, not
   * including, the first {@code groupSuffix} after the prefix; the whole name if the suffix is
   * empty, null or not found. An empty or null prefix gives an empty map (as the original). Sorted
   * by group. Read-only.
   */
  SortedMap<String, Integer> group(String namePrefix, String groupSuffix);

  /**
   * Moves the tokens, unchanged, from the active to the archived set, all or none. Each must carry
   * its stored version (none: INPUT_ERROR, wrong: VERSION_CONFLICT, missing: NOT_FOUND). Archived
   * tokens are no longer visible to the operations above; {@link #queryArchived} and {@link
   * #deleteArchived} serve them.
   */
  void archive(List<Token> tokens);

  /**
   * One page of the archived tokens under {@code namePrefix} (empty: all), by name, then version:
   * the same name may have been archived more than once. The page holds at most {@code maxTokens}
   * (1 to {@link TokenService#MAX_ARCHIVED_PAGE}, else INPUT_ERROR) and starts after {@code after}
   * (its name and version; null: at the start). A page shorter than {@code maxTokens} is the last.
   * Read-only.
   */
  List<Token> queryArchived(String namePrefix, Token after, int maxTokens);

  /**
   * Deletes the archived tokens under a non-empty, valid prefix (else INPUT_ERROR) for good;
   * returns how many.
   */
  int deleteArchived(String namePrefix);

  /**
   * {@link #archive(List)}, and in the same transaction records the instance's run and executions
   * in the run history (replacing any earlier record of that instance). All or nothing: if the
   * tokens cannot be archived, nothing is recorded.
   */
  void archive(List<Token> tokens, RunArchive run);

  /** One page of the run history, as the query filters and sorts it. Read-only. */
  RunPage queryRuns(RunQuery query);

  /** One page of recorded job executions, newest first. Read-only. */
  ExecutionPage queryExecutions(ExecutionQuery query);

  /**
   * Deletes one instance's run and executions from the run history (cleanup deletes its archived
   * tokens beside); returns how many rows went (0 if none was recorded).
   */
  int deleteRun(String workflow, String instance);
}
