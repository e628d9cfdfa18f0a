package dev.flipper.yaml;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * "Did you mean" for unknown names: a close sibling name, or the one key elsewhere with that name.
 * Stateless.
 */
public final class Suggestions {
  private Suggestions() {}

  /**
   * The message for an unknown key {@code leaf} under {@code parent} ("" at the top level, where
   * keys are sections, as in the daemons' configuration). {@code siblings} are the valid names
   * there; {@code allKeys} the full paths searched when the key looks like it belongs to another
   * section.
   */
  public static String unknownKey(
      String parent, String leaf, List<String> siblings, Collection<String> allKeys) {
    String path = parent.isEmpty() ? leaf : parent + "." + leaf;
    String what = parent.isEmpty() ? "unknown section '" : "unknown key '";
    Optional<String> suggestion =
        closest(leaf, siblings)
            .map(s -> parent.isEmpty() ? s : parent + "." + s)
            .or(() -> sameLeaf(leaf, allKeys));
    if (suggestion.isPresent()) {
      return what + path + "' (did you mean '" + suggestion.get() + "'?)";
    }
    String valid = parent.isEmpty() ? "sections: " : "valid keys in '" + parent + "': ";
    return what + path + "' (" + valid + String.join(", ", siblings) + ")";
  }

  /**
   * The candidate closest to {@code wrong} (ignoring case) if it is close: a few edits away, or one
   * is a prefix of at least 4 characters of the other.
   */
  public static Optional<String> closest(String wrong, Collection<String> candidates) {
    String w = wrong.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      String c = candidate.toLowerCase(Locale.ROOT);
      int distance = distance(w, c);
      boolean close =
          distance <= Math.max(1, c.length() / 3) || isLongPrefix(w, c) || isLongPrefix(c, w);
      if (close && distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  private static Optional<String> sameLeaf(String leaf, Collection<String> allKeys) {
    List<String> matches =
        allKeys.stream()
            .filter(k -> k.substring(k.lastIndexOf('.') + 1).equalsIgnoreCase(leaf))
            .toList();
    return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
  }

  private static boolean isLongPrefix(String prefix, String of) {
    return prefix.length() >= 4 && of.startsWith(prefix);
  }

  /** Optimal string alignment distance: edits, counting a swap of two neighbours as one. */
  public static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
