package dev.flipper.bench;

import dev.flipper.jdbc.JdbcUrl;
import dev.flipper.jdbc.MariaDbUrls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The database a benchmark writes to, which the benchmark creates and deletes: on a MariaDB/MySQL
 * server a new database, in H2 a new file. The URL names it; a database or file that exists already
 * is refused, so that deleting it at the end removes exactly what the benchmark wrote. Not
 * thread-safe.
 */
final class BenchDatabase implements AutoCloseable {
  /** The names of databases and files the benchmarks make when the URL does not name one. */
  static final String NAME_PREFIX = "flipper_bench_";

  private final String url;
  private final String serverUrl;
  private final String user;
  private final String password;
  private final String createdDatabase;
  private final Path h2Directory;
  private final String h2Name;
  private final List<Path> createdDirectories;

  private BenchDatabase(
      String url,
      String serverUrl,
      String user,
      String password,
      String createdDatabase,
      Path h2Directory,
      String h2Name,
      List<Path> createdDirectories) {
    this.url = url;
    this.serverUrl = serverUrl;
    this.user = user;
    this.password = password;
    this.createdDatabase = createdDatabase;
    this.h2Directory = h2Directory;
    this.h2Name = h2Name;
    this.createdDirectories = createdDirectories;
  }

  /** A unique name for a database or key prefix of one run. */
  static String uniqueName() {
    return NAME_PREFIX + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  /**
   * {@link #create(String, String, String)}, with a refused URL as a command-line error (exit code
   * 2).
   */
  static BenchDatabase create(CommandSpec spec, String url, String user, String password)
      throws SQLException {
    try {
      return create(url, user, password);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, url);
    }
  }

  /**
   * Creates the database the URL names: {@code jdbc:mysql://HOST[:PORT]/[NAME][?params]} (also
   * MariaDB too; without NAME a unique {@code flipper_bench_...}) or {@code
   * jdbc:h2:[file:]PATH[;params]}.
   *
   * @throws IllegalArgumentException if the URL is of another kind or names a database or file that
   *     exists
   */
  static BenchDatabase create(String url, String user, String password) throws SQLException {
    String lower = url.toLowerCase(Locale.ROOT);
    Optional<String> mariaDb = MariaDbUrls.advice(url);
    if (mariaDb.isPresent()) {
      throw new IllegalArgumentException("--url " + mariaDb.get());
    }
    if (lower.startsWith("jdbc:mysql://")) {
      return createOnServer(url, user, password);
    }
    if (lower.startsWith("jdbc:h2:")) {
      return createH2(url, user, password);
    }
    throw new IllegalArgumentException(
        "unsupported URL "
            + JdbcUrl.masked(url)
            + ": use jdbc:mysql://HOST:PORT/ (MySQL or MariaDB) or jdbc:h2:file:PATH");
  }

  private static BenchDatabase createOnServer(String url, String user, String password)
      throws SQLException {
    int hostStart = url.indexOf("//") + 2;
    int query = url.indexOf('?');
    int end = query < 0 ? url.length() : query;
    int slash = url.indexOf('/', hostStart);
    String server = slash < 0 || slash > end ? url.substring(0, end) : url.substring(0, slash);
    String named = slash < 0 || slash > end ? "" : url.substring(slash + 1, end);
    String params = url.substring(end);
    String database = named.isEmpty() ? uniqueName() : named;
    if (!database.matches("[A-Za-z0-9_]{1,64}")) {
      throw new IllegalArgumentException(
          "database name '" + database + "' in --url: use letters, digits and '_'");
    }
    String serverUrl = server + "/" + params;
    try (Connection c = DriverManager.getConnection(serverUrl, user, password);
        Statement st = c.createStatement()) {
      // No IF NOT EXISTS: an existing database must stay untouched, so it is an error.
      st.execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4");
    } catch (SQLException e) {
      if (e.getErrorCode() == 1007) { // ER_DB_CREATE_EXISTS
        throw new IllegalArgumentException(
            "database '"
                + database
                + "' exists on "
                + JdbcUrl.masked(serverUrl)
                + "; the benchmark creates its own database and drops it at the end: name a new one in --url,"
                + " or name none for a unique "
                + NAME_PREFIX
                + "...",
            e);
      }
      throw e;
    }
    return new BenchDatabase(
        server + "/" + database + params,
        serverUrl,
        user,
        password,
        database,
        null,
        null,
        List.of());
  }

  private static BenchDatabase createH2(String url, String user, String password) {
    String rest = url.substring("jdbc:h2:".length());
    int semicolon = rest.indexOf(';');
    String location = semicolon < 0 ? rest : rest.substring(0, semicolon);
    if (location.startsWith("file:")) {
      location = location.substring("file:".length());
    } else if (location.matches(
        "[A-Za-z]{2,}:.*")) { // mem:, tcp:, zip: ...: no file of ours to delete
      throw new IllegalArgumentException(
          "unsupported H2 URL "
              + JdbcUrl.masked(url)
              + ": use jdbc:h2:file:PATH (a new file, deleted at the end)");
    }
    if (location.startsWith("~")) {
      location = System.getProperty("user.home") + location.substring(1);
    }
    Path file = Path.of(location).toAbsolutePath().normalize();
    Path directory = file.getParent();
    String name = file.getFileName().toString();
    if (!ownedFiles(directory, name).isEmpty()) {
      throw new IllegalArgumentException(
          "H2 database "
              + file
              + " exists ("
              + ownedFiles(directory, name).get(0)
              + "); the benchmark creates its own file and deletes it at the end: name a new one in --url");
    }
    // H2 would create missing folders; make them here so that close() knows which ones to remove.
    List<Path> created = new ArrayList<>();
    for (Path p = directory; p != null && !Files.exists(p); p = p.getParent()) {
      created.add(p);
    }
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + directory + " for the H2 database", e);
    }
    return new BenchDatabase(
        url, null, user, password, null, directory, name, List.copyOf(created));
  }

  /**
   * The files of H2 database {@code name} in the folder: {@code name.mv.db}, {@code name.trace.db}
   * and so on.
   */
  private static List<Path> ownedFiles(Path directory, String name) {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(p -> p.getFileName().toString().startsWith(name + ".")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + directory, e);
    }
  }

  /** The JDBC URL of the benchmark's database. */
  String url() {
    return url;
  }

  boolean isH2() {
    return h2Directory != null;
  }

  /**
   * The URL of the MariaDB/MySQL server without a database, for server-wide statements; null on H2.
   */
  String serverUrl() {
    return serverUrl;
  }

  /** What the benchmark writes to and that it goes away, for the first lines of the output. */
  String describe() {
    return isH2()
        ? "H2 file " + h2Directory.resolve(h2Name) + " (created; its files are deleted at the end)"
        : "database "
            + createdDatabase
            + " on "
            + JdbcUrl.masked(serverUrl)
            + " (created; dropped at the end)";
  }

  /**
   * Drops the database, or deletes the H2 files and the folders made for them. The stores must be
   * closed.
   */
  @Override
  public void close() throws SQLException {
    if (createdDatabase != null) {
      try (Connection c = DriverManager.getConnection(serverUrl, user, password);
          Statement st = c.createStatement()) {
        st.execute("DROP DATABASE IF EXISTS " + createdDatabase);
      }
      return;
    }
    try {
      for (Path file : ownedFiles(h2Directory, h2Name)) {
        Files.deleteIfExists(file);
      }
      for (Path directory : createdDirectories) { // deepest first
        try {
          Files.deleteIfExists(directory);
        } catch (DirectoryNotEmptyException e) {
          return; // someone else's files arrived meanwhile: they stay, and so do the folders above
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the benchmark's H2 files in " + h2Directory, e);
    }
  }
}
