package dev.flipper.token;

/**
 * The rules for token names. Names are visible ASCII (0x21 to 0x7E: no spaces, no control
 * characters) so that a database can index all {@value #MAX_NAME_LENGTH} characters with a binary
 * collation and serve every prefix query as one index range: {@code name >= prefix AND name <
 * upperBound(prefix)}. Spaces are out because MySQL's binary collations ignore trailing spaces
 * ("/a" would equal "/a "); every allowed character sorts above the space, so such padding never
 * changes the order of valid names. Stateless.
 */
public final class TokenNames {
  /** Longest name, in characters (= bytes). The original stopped at 255. */
  public static final int MAX_NAME_LENGTH = 1024;

  /** Longest owner, in characters. */
  public static final int MAX_OWNER_LENGTH = 1024;

  /** The name separator of the workflow hierarchy. */
  public static final String DELIMITER = "/";

  private static final char FIRST_ALLOWED = 0x21;
  private static final char LAST_ALLOWED = 0x7E;

  /** Greater than every character a name may hold. */
  private static final char ABOVE_ALLOWED = 0x7F;

  private TokenNames() {}

  /** Null if the name is valid, else why not. */
  public static String problem(String name) {
    if (name == null || name.isEmpty()) {
      return "a token name is required";
    }
    if (name.length() > MAX_NAME_LENGTH) {
      return "token name '"
          + name.substring(0, 60)
          + "...' is "
          + name.length()
          + " characters long; at most "
          + MAX_NAME_LENGTH
          + " are allowed";
    }
    int bad = firstDisallowed(name);
    if (bad >= 0) {
      return "token name '"
          + name
          + "' has character U+"
          + String.format("%04X", (int) name.charAt(bad))
          + " at index "
          + bad
          + "; names are visible ASCII (U+0021 to U+007E, no spaces)";
    }
    return null;
  }

  /** True if some valid name could contain {@code text}: every character is visible ASCII. */
  public static boolean canOccurInName(String text) {
    return firstDisallowed(text) < 0;
  }

  /**
   * The exclusive upper bound of the names starting with {@code prefix}: every such name is {@code
   * >= prefix} and {@code <} the bound, every other name is outside. The prefix must satisfy {@link
   * #canOccurInName}.
   */
  public static String upperBound(String prefix) {
    return prefix + ABOVE_ALLOWED;
  }

  private static int firstDisallowed(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < FIRST_ALLOWED || c > LAST_ALLOWED) {
        return i;
      }
    }
    return -1;
  }
}
