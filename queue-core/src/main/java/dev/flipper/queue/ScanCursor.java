package dev.flipper.queue;

import dev.flipper.queue.spi.ScanBound;
import java.util.Comparator;

/**
 * The position of the last job of a scan page, and the continuation token that carries it. Global
 * scan order is run-after descending, then shard name ascending, then priority ascending, then
 * local id descending; a page continues strictly after the cursor. Token form: {@code
 * v1.<runAfter>.<priority>.<localId>.<shard>} (shard last because it may contain dots). Immutable.
 */
record ScanCursor(long runAfterMillis, String shard, int priority, long localId) {
  private static final String VERSION = "v1";

  /** A job of a scan page, with its source, in global scan order. */
  record Entry(String shard, int priority, long runAfterMillis, long localId) {}

  static final Comparator<Entry> ORDER =
      Comparator.comparingLong(Entry::runAfterMillis)
          .reversed()
          .thenComparing(Entry::shard)
          .thenComparingInt(Entry::priority)
          .thenComparing(Comparator.comparingLong(Entry::localId).reversed());

  static ScanCursor after(Entry last) {
    return new ScanCursor(last.runAfterMillis(), last.shard(), last.priority(), last.localId());
  }

  /**
   * Where the scan of one (shard, priority) continues so that together they resume right after this
   * cursor.
   */
  ScanBound boundFor(String otherShard, int otherPriority) {
    int cmp = otherShard.compareTo(shard);
    if (cmp == 0) {
      cmp = Integer.compare(otherPriority, priority);
    }
    if (cmp < 0) {
      return new ScanBound(
          runAfterMillis, 0); // sorts before the cursor at equal run-after: already returned
    }
    if (cmp > 0) {
      return new ScanBound(
          runAfterMillis, Long.MAX_VALUE); // sorts after: its jobs at this run-after are due
    }
    return new ScanBound(runAfterMillis, localId);
  }

  String token() {
    return VERSION + "." + runAfterMillis + "." + priority + "." + localId + "." + shard;
  }

  /** Parses a token made by {@link #token()}; anything else is CONTINUATION_INVALID. */
  static ScanCursor parse(String token) {
    String[] parts = token.split("\\.", 5);
    if (parts.length != 5 || !VERSION.equals(parts[0]) || parts[4].isEmpty()) {
      throw invalid(token);
    }
    try {
      long runAfter = Long.parseLong(parts[1]);
      int priority = Integer.parseInt(parts[2]);
      long localId = Long.parseLong(parts[3]);
      if (localId < 0) {
        throw invalid(token);
      }
      return new ScanCursor(runAfter, parts[4], priority, localId);
    } catch (NumberFormatException e) {
      throw invalid(token);
    }
  }

  private static QueueException invalid(String token) {
    return new QueueException(
        ErrorCode.CONTINUATION_INVALID,
        "scan continuation '"
            + token
            + "' is not valid; pass \""
            + ScanParams.START
            + "\" to begin, or the continuation returned by the previous page");
  }
}
