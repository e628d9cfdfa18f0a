package dev.flipper.config;

import dev.flipper.yaml.Problems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Checks the files and folders a configuration names, as {@code flipper config-check} does before a
 * deploy: files the daemons read ({@code queue.rateLimitFile}, {@code queue.serverSetFile}) must
 * exist and be readable; places they write ({@code workers.logDir}, {@code workers.workDir}, {@code
 * logging.file}, embedded H2 databases) must be a folder (or file) that can be written, or be
 * creatable in the nearest folder that exists. Relative paths are taken from the working directory,
 * as the daemons take them. Only the daemons named are checked: a queue host needs no workers' log
 * folder. Not part of {@link ConfigLoader}: the files may legitimately appear later on another
 * host. Stateless.
 */
public final class ReferencedFiles {
  private ReferencedFiles() {}

  /**
   * @param sections the daemons that will run with this config (queue, master, scheduler, workers,
   *     ui)
   * @return one line per problem, {@code file:line: 'key' ...}; empty when every file is in place
   */
  public static List<String> problems(FlipperConfig config, List<String> sections) {
    ConfigValues values = config.values();
    Problems problems = new Problems();
    if (sections.contains("queue")) {
      readable(values, "queue.rateLimitFile", problems);
      readable(values, "queue.serverSetFile", problems);
      if (config.storage().backend() == StorageBackend.JDBC) {
        List<ConfigValues> shards = values.items("storage.jdbc.shards");
        for (int i = 0; i < shards.size(); i++) {
          h2File(shards.get(i), "url", "storage.jdbc.shards[" + i + "].url", problems);
        }
      }
    }
    if (sections.contains("master")) {
      if (values.text("master.jdbcUrl").isEmpty()) {
        h2File(
            values.items("storage.jdbc.shards").get(0),
            "url",
            "storage.jdbc.shards[0].url",
            problems);
      } else {
        h2File(values, "master.jdbcUrl", "master.jdbcUrl", problems);
      }
    }
    if (sections.contains("workers")) {
      writableFolder(values, "workers.logDir", problems);
      writableFolder(values, "workers.workDir", problems);
    }
    if (!sections.isEmpty() && !values.text("logging.file").isEmpty()) {
      String file = values.text("logging.file").replace("{mode}", sections.get(0));
      writable(values, "logging.file", Path.of(file), false, problems);
    }
    return problems.lines();
  }

  private static void readable(ConfigValues values, String key, Problems problems) {
    String text = values.text(key);
    if (text.isEmpty()) {
      return;
    }
    Path path = Path.of(text);
    String problem =
        !Files.exists(path)
            ? "does not exist"
            : Files.isDirectory(path)
                ? "is a folder, not a file"
                : !Files.isReadable(path) ? "cannot be read (permissions)" : null;
    if (problem != null) {
      problems.add(
          values.value(key).where(), "'" + key + "' names " + shown(path) + ", which " + problem);
    }
  }

  private static void writableFolder(ConfigValues values, String key, Problems problems) {
    String text = values.text(key);
    if (!text.isEmpty()) {
      writable(values, key, Path.of(text), true, problems);
    }
  }

  /**
   * An embedded H2 database file ({@code jdbc:h2:file:PATH;...} or {@code jdbc:h2:PATH}): its
   * folder must be writable.
   */
  private static void h2File(ConfigValues values, String key, String shownKey, Problems problems) {
    String url = values.text(key);
    String lower = url.toLowerCase(Locale.ROOT);
    if (!lower.startsWith("jdbc:h2:")) {
      return;
    }
    String rest = url.substring("jdbc:h2:".length());
    if (rest.toLowerCase(Locale.ROOT).startsWith("file:")) {
      rest = rest.substring("file:".length());
    } else if (rest.matches("(?i)(mem|tcp|ssl|zip|nio\\w*|split|async|retry):.*")) {
      return; // in memory or on a server: no local file
    }
    int semicolon = rest.indexOf(';');
    String file = semicolon < 0 ? rest : rest.substring(0, semicolon);
    if (file.startsWith("~")) {
      file = System.getProperty("user.home") + file.substring(1);
    }
    Path database = Path.of(file + ".mv.db");
    String problem = whyNotWritable(database, false);
    if (problem != null) {
      problems.add(
          values.value(key).where(),
          "'" + shownKey + "' is an H2 database at " + shown(database) + ", which " + problem);
    }
  }

  private static void writable(
      ConfigValues values, String key, Path path, boolean folder, Problems problems) {
    String problem = whyNotWritable(path, folder);
    if (problem != null) {
      problems.add(
          values.value(key).where(), "'" + key + "' names " + shown(path) + ", which " + problem);
    }
  }

  /**
   * Null if {@code path} can be written, or created in the nearest existing folder; else why not.
   */
  private static String whyNotWritable(Path path, boolean folder) {
    Path absolute = path.toAbsolutePath().normalize();
    if (Files.exists(absolute)) {
      if (folder != Files.isDirectory(absolute)) {
        return folder ? "is a file, not a folder" : "is a folder, not a file";
      }
      return Files.isWritable(absolute) ? null : "cannot be written (permissions)";
    }
    Path existing = absolute.getParent();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return "cannot be created (no part of the path exists)";
    }
    if (!Files.isDirectory(existing)) {
      return "cannot be created: " + existing + " is a file, not a folder";
    }
    return Files.isWritable(existing)
        ? null
        : "does not exist and cannot be created: " + existing + " cannot be written (permissions)";
  }

  /**
   * The path as written, with the absolute form when it is relative (the working directory
   * decides).
   */
  private static String shown(Path path) {
    return path.isAbsolute()
        ? path.toString()
        : path + " (" + path.toAbsolutePath().normalize() + ")";
  }
}
