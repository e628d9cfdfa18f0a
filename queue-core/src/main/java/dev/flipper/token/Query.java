package dev.flipper.token;

/**
 * Which tokens to read: those whose name starts with {@code namePrefix}. Immutable.
 *
 * <p>Order: without {@code maxTokens}, every match in name order (lexicographic by UTF-16 unit,
 * which for the visible-ASCII names tokens have is byte order). With {@code maxTokens = k}, the k
 * matches of highest priority, ordered by priority descending, then name ascending.
 *
 * @param namePrefix the name prefix; "" (or null) matches every token
 * @param maxTokens at most this many, the highest priorities first; null means all; 0 gives none
 */
public record Query(String namePrefix, Integer maxTokens) {

  public Query {
    namePrefix = namePrefix == null ? "" : namePrefix;
  }

  /** Every token under the prefix, in name order. */
  public static Query prefix(String namePrefix) {
    return new Query(namePrefix, null);
  }

  /** The {@code maxTokens} tokens of highest priority under the prefix. */
  public static Query top(String namePrefix, int maxTokens) {
    return new Query(namePrefix, maxTokens);
  }

  public boolean isLimited() {
    return maxTokens != null;
  }
}
