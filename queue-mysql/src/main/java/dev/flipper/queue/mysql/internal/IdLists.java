package dev.flipper.queue.mysql.internal;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code IN (?, ?, ...)} lists of local ids. The list is padded to a power of two (repeating the
 * last id) so that only a few statement texts exist and the driver's statement cache keeps hitting.
 * Stateless.
 */
public final class IdLists {
  /** The most ids in one statement. */
  public static final int MAX_IDS = 1024;

  private static final String[] PLACEHOLDERS = new String[11];

  static {
    for (int i = 0; i < PLACEHOLDERS.length; i++) {
      int n = 1 << i;
      StringBuilder sb = new StringBuilder(n * 3 + 2).append('(');
      for (int j = 0; j < n; j++) {
        sb.append(j == 0 ? "?" : ",?");
      }
      PLACEHOLDERS[i] = sb.append(')').toString();
    }
  }

  private IdLists() {}

  /** Splits ids into chunks of at most {@link #MAX_IDS}. */
  public static List<List<Long>> chunks(List<Long> ids) {
    List<List<Long>> chunks = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += MAX_IDS) {
      chunks.add(ids.subList(i, Math.min(ids.size(), i + MAX_IDS)));
    }
    return chunks;
  }

  /** "(?,?,...)" for a chunk of {@code count} ids (1..MAX_IDS). */
  public static String placeholders(int count) {
    return PLACEHOLDERS[slot(count)];
  }

  /**
   * Binds the chunk from {@code index}, padding with its last id; returns the next parameter index.
   */
  public static int bind(PreparedStatement ps, int index, List<Long> chunk) throws SQLException {
    int size = 1 << slot(chunk.size());
    for (int i = 0; i < size; i++) {
      ps.setLong(index++, chunk.get(Math.min(i, chunk.size() - 1)));
    }
    return index;
  }

  private static int slot(int count) {
    if (count < 1 || count > MAX_IDS) {
      throw new IllegalArgumentException(
          "an id list needs 1.." + MAX_IDS + " ids, got " + count + " (indicates a bug)");
    }
    return 32 - Integer.numberOfLeadingZeros(count - 1);
  }
}
