package dev.flipper.token.jdbc.internal;

import dev.flipper.token.TokenNames;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Group counts ({@code TokenMaster.group}) for a one-character suffix (the usual {@code /}), by
 * skipping from group to group through the name index: one seek for the next group's first name,
 * one count of its index range. A prefix with few large groups (the token browser's root, the
 * workflows under {@code /workflow/}) then costs a few small statements instead of reading every
 * name. When the first groups turn out small (the instances of one workflow), reading the rest of
 * the names is cheaper (a statement costs more than a few dozen names, a round trip on MariaDB,
 * parsing and planning on H2), and it does that. Works in the caller's transaction; not
 * thread-safe, one per call.
 *
 * <p>Why skipping is exact: with suffix {@code s}, the group {@code g} of a name is the name up to
 * its first {@code s} after the prefix, so {@code g} holds no {@code s} there, and the names of
 * {@code g} are {@code g} itself and those starting with {@code g + s}: one point and one index
 * range. Names of another group can sort between {@code g} and {@code g + s} ({@code g-x} between
 * {@code g} and {@code g/}); they are reached by stepping past {@code g}, and a step that lands in
 * a group already counted jumps over its range.
 */
public final class GroupCounter {
  /** Groups counted before deciding whether skipping pays off. */
  static final int PROBE_GROUPS = 4;

  /** Average group size below which reading names is cheaper than a count per group. */
  static final int SMALL_GROUP = 256;

  private final Connection c;
  private final String table;
  private final String prefix;
  private final String suffix;

  /**
   * @param table the active tokens, as a read of names should name them ({@code
   *     Dialect.tokenNames()})
   * @param suffix exactly one character
   */
  public GroupCounter(Connection c, String table, String prefix, String suffix) {
    if (suffix.length() != 1) {
      throw new IllegalArgumentException(
          "GroupCounter takes a one-character suffix, got '" + suffix + "'");
    }
    this.c = c;
    this.table = table;
    this.prefix = prefix;
    this.suffix = suffix;
  }

  /** True if the suffix is one this class counts by. */
  public static boolean handles(String suffix) {
    return suffix != null && suffix.length() == 1;
  }

  public SortedMap<String, Integer> count() throws SQLException {
    SortedMap<String, Integer> counts = new TreeMap<>();
    String end = TokenNames.upperBound(prefix);
    String cursor = prefix;
    boolean inclusive = true;
    long counted = 0;
    while (true) {
      if (counts.size() >= PROBE_GROUPS && counted < (long) SMALL_GROUP * counts.size()) {
        readRest(cursor, inclusive, end, counts);
        return counts;
      }
      String first = firstName(cursor, inclusive, end);
      if (first == null) {
        return counts;
      }
      String group = groupOf(first);
      String members = group + suffix;
      String membersEnd = TokenNames.upperBound(members);
      if (counts.containsKey(group)) { // stepped into a group counted before: over its range
        cursor = membersEnd;
        inclusive = true;
        continue;
      }
      int n = countGroup(group, members, membersEnd);
      counts.put(group, n);
      counted += n;
      // After the group's own name, names of other groups may come before its range; after its
      // range, none.
      if (first.equals(group)) {
        cursor = first;
        inclusive = false;
      } else {
        cursor = membersEnd;
        inclusive = true;
      }
    }
  }

  private String groupOf(String name) {
    int at = name.indexOf(suffix, prefix.length());
    return at < 0 ? name : name.substring(0, at);
  }

  private String firstName(String from, boolean inclusive, String end) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT name FROM "
                + table
                + " WHERE name "
                + (inclusive ? ">=" : ">")
                + " ? AND name < ? ORDER BY name LIMIT 1")) {
      ps.setString(1, from);
      ps.setString(2, end);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private int countGroup(String group, String members, String membersEnd) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT (SELECT COUNT(*) FROM "
                + table
                + " WHERE name >= ? AND name < ?), (SELECT COUNT(*) FROM "
                + table
                + " WHERE name = ?)")) {
      ps.setString(1, members);
      ps.setString(2, membersEnd);
      ps.setString(3, group);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) + rs.getInt(2);
      }
    }
  }

  /**
   * Reads the names from the cursor on and counts them here, leaving out the groups already counted
   * whole.
   */
  private void readRest(
      String from, boolean inclusive, String end, SortedMap<String, Integer> counts)
      throws SQLException {
    Set<String> done = new HashSet<>(counts.keySet());
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT name FROM "
                + table
                + " WHERE name "
                + (inclusive ? ">=" : ">")
                + " ? AND name < ?")) {
      ps.setString(1, from);
      ps.setString(2, end);
      try (ResultSet rs = ps.executeQuery()) {
        String run =
            null; // names of a group mostly come one after another: count a run, then merge it
        int runCount = 0;
        while (rs.next()) {
          String group = groupOf(rs.getString(1));
          if (!group.equals(run)) {
            if (run != null && !done.contains(run)) {
              counts.merge(run, runCount, Integer::sum);
            }
            run = group;
            runCount = 0;
          }
          runCount++;
        }
        if (run != null && !done.contains(run)) {
          counts.merge(run, runCount, Integer::sum);
        }
      }
    }
  }
}
