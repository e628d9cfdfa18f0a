package dev.flipper.token.spi;

/**
 * The group rule of {@link dev.flipper.token.TokenMaster#group}, for stores that group in Java.
 * Stateless.
 */
public final class TokenGroups {

  private TokenGroups() {}

  /**
   * The name up to, not including, the first {@code suffix} at or after the end of the prefix; the
   * whole name if the suffix is null, empty or not found.
   */
  public static String groupOf(String name, int prefixLength, String suffix) {
    if (suffix == null || suffix.isEmpty()) {
      return name;
    }
    int end = name.indexOf(suffix, prefixLength);
    return end < 0 ? name : name.substring(0, end);
  }
}
