package dev.flipper.token;

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
}
