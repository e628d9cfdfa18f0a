package dev.flipper.bench;

import java.nio.file.Path;
import java.sql.SQLException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The database options of the benchmarks whose default is a new H2 file (tokens, workflows), shared
 * as a picocli mixin so their help and rules read the same.
 */
final class NewDatabaseOptions {
  @Option(
      names = "--url",
      paramLabel = "URL",
      description =
          "jdbc:mysql://HOST:PORT/[NEW_DATABASE] on MySQL or MariaDB (the benchmark creates that "
              + "database, by default a unique "
              + BenchDatabase.NAME_PREFIX
              + "..., and drops it), or "
              + "jdbc:h2:file:NEW_PATH (a new H2 file; its files are deleted at the end). Default: a new H2 file "
              + "in the temporary folder")
  String url;

  @Option(
      names = "--user",
      defaultValue = "root",
      description = "Database user. Default: ${DEFAULT-VALUE}")
  String user;

  @Option(names = "--password", defaultValue = "", description = "Database password. Default: none")
  String password;

  /** Creates the database named by --url, or a new H2 file in the temporary folder. */
  BenchDatabase create(CommandSpec spec) throws SQLException {
    // Not JdbcTokenStoreConfig.embedded(): its AUTO_SERVER would open a port that no one else needs
    // here.
    String target =
        url != null
            ? url
            : "jdbc:h2:file:"
                + Path.of(System.getProperty("java.io.tmpdir"), BenchDatabase.uniqueName())
                    .toAbsolutePath();
    return BenchDatabase.create(spec, target, user, password);
  }
}
