package dev.flipper.workflow.ui;

/**
 * Where the login form may send a browser on: a path of this site only. Anything a browser could
 * read as another host ({@code //host}, {@code /\host}, a tab or newline it drops before the second
 * slash, their percent-encoded forms) goes to {@code /} instead.
 */
final class LocalPath {
  private LocalPath() {}

  /** {@code next} if it is a plain local path, else {@code /}. */
  static String orRoot(String next) {
    return next != null && local(next) && local(decoded(next)) ? next : "/";
  }

  private static boolean local(String path) {
    if (!path.startsWith("/") || path.startsWith("//")) {
      return false;
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '\\' || c < 0x20 || c == 0x7f) {
        return false;
      }
    }
    return true;
  }

  /** Percent-decoded, bytes as Latin-1 (only control characters and slashes matter here). */
  private static String decoded(String path) {
    StringBuilder out = new StringBuilder(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '%'
          && i + 2 < path.length()
          && hex(path.charAt(i + 1)) >= 0
          && hex(path.charAt(i + 2)) >= 0) {
        out.append((char) (hex(path.charAt(i + 1)) * 16 + hex(path.charAt(i + 2))));
        i += 2;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static int hex(char c) {
    return Character.digit(c, 16);
  }
}
