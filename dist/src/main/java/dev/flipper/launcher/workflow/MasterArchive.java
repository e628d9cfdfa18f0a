package dev.flipper.launcher.workflow;

import dev.flipper.config.FlipperConfig;
import dev.flipper.launcher.modes.TokenStores;
import dev.flipper.token.Token;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.token.spi.TokenStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The archived tokens in the master's database ({@code master.jdbcUrl}, else the first {@code storage.jdbc}
 * shard), which the master's API does not serve: {@code status} shows archived instances from them. A database
 * that cannot be opened from here (another host's, or an embedded H2 file that does not exist on this one) is
 * reported once on stderr and reads as empty, so {@code status} still shows the active instances. Closed after
 * use.
 */
final class MasterArchive implements AutoCloseable {
  private static final Pattern H2_FILE = Pattern.compile("(?i)jdbc:h2:file:([^;]+).*");

  private final TokenStore store;

  private MasterArchive(TokenStore store) {
    this.store = store;
  }

  static MasterArchive open(FlipperConfig config, PrintWriter err) {
    JdbcTokenStoreConfig database = TokenStores.database(config);
    Matcher h2 = H2_FILE.matcher(database.url());
    if (h2.matches() && !Files.exists(Path.of(h2.group(1) + ".mv.db"))) {
      err.println("archived instances not shown: no H2 database " + h2.group(1) + ".mv.db on this host");
      return new MasterArchive(null);
    }
    try {
      return new MasterArchive(JdbcTokenStore.open(database));
    } catch (RuntimeException e) {
      err.println("archived instances not shown: cannot open the master's database " + database.url() + ": "
          + Optional.ofNullable(e.getMessage()).orElse(e.toString()));
      return new MasterArchive(null);
    }
  }

  /** Archived tokens under a name prefix; none if the database could not be opened. */
  Function<String, List<Token>> query() {
    return store == null ? prefix -> List.of() : store::queryArchived;
  }

  @Override
  public void close() {
    if (store != null) {
      try {
        store.close();
      } catch (Exception e) {
        // Closing a read-only use of the database; nothing the user can act on.
      }
    }
  }
}
