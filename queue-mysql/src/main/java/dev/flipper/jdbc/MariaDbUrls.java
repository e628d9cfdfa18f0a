package dev.flipper.jdbc;

import java.util.Locale;
import java.util.Optional;

/**
 * {@code jdbc:mariadb:} URLs, which need MariaDB Connector/J: the distribution bundles only
 * mysql-connector-j, which works with MariaDB 10.6+ through a {@code jdbc:mysql:} URL, so such a
 * URL is refused with the URL to write instead (embedding applications that bring the MariaDB
 * driver may still use it). Stateless.
 */
public final class MariaDbUrls {
  private static final String PREFIX = "jdbc:mariadb:";

  private MariaDbUrls() {}

  /** What to write instead of {@code url} if it is a {@code jdbc:mariadb:} URL, else empty. */
  public static Optional<String> advice(String url) {
    if (!url.strip().toLowerCase(Locale.ROOT).startsWith(PREFIX)) {
      return Optional.empty();
    }
    String instead = "jdbc:mysql:" + url.strip().substring(PREFIX.length());
    return Optional.of(
        "is a jdbc:mariadb: URL, whose driver (MariaDB Connector/J) is not bundled: write '"
            + instead
            + "' instead (mysql-connector-j is bundled and works with MariaDB 10.6+)");
  }
}
