package dev.flipper.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The module table of docs/architecture.md ("Modules"): a markdown table whose header names the
 * columns {@code module}, {@code depends on (Flipper modules)} and {@code libraries}; names in
 * those cells are written in backticks, and "—" is none.
 */
final class ModuleTable {
  static final Path DOC = Poms.ROOT.resolve("docs/architecture.md");
  static final String MODULE = "module";
  static final String DEPENDS_ON = "depends on (Flipper modules)";
  static final String LIBRARIES = "libraries";
  private static final Pattern NAME = Pattern.compile("`([^`]+)`");

  /** One row: the module and the names in its dependency and library cells, in table order. */
  record Row(String module, List<String> dependsOn, List<String> libraries) {}

  private ModuleTable() {}

  static List<Row> read() {
    try {
      return parse(Files.readString(DOC));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + DOC, e);
    }
  }

  /** The rows of the first table whose header has the three columns; fails on a malformed row. */
  static List<Row> parse(String markdown) {
    List<String> lines = markdown.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      List<String> header = cells(lines.get(i));
      if (!header.contains(MODULE) || !header.contains(DEPENDS_ON) || !header.contains(LIBRARIES)) {
        continue;
      }
      int module = header.indexOf(MODULE);
      int dependsOn = header.indexOf(DEPENDS_ON);
      int libraries = header.indexOf(LIBRARIES);
      List<Row> rows = new ArrayList<>();
      for (int j = i + 2; j < lines.size() && lines.get(j).startsWith("|"); j++) {
        List<String> row = cells(lines.get(j));
        if (row.size() != header.size()) {
          throw new IllegalStateException(
              DOC
                  + " line "
                  + (j + 1)
                  + ": "
                  + row.size()
                  + " cells, the header has "
                  + header.size()
                  + " (a '|' inside a cell?)");
        }
        List<String> names = names(row.get(module));
        if (names.size() != 1) {
          throw new IllegalStateException(
              DOC + " line " + (j + 1) + ": the module cell must be one `name`");
        }
        rows.add(new Row(names.get(0), names(row.get(dependsOn)), names(row.get(libraries))));
      }
      return rows;
    }
    throw new IllegalStateException(
        DOC
            + " has no table with the columns '"
            + MODULE
            + "', '"
            + DEPENDS_ON
            + "' and '"
            + LIBRARIES
            + "'");
  }

  private static List<String> cells(String line) {
    String trimmed = line.trim();
    if (!trimmed.startsWith("|") || !trimmed.endsWith("|") || trimmed.length() < 2) {
      return List.of();
    }
    return Arrays.stream(trimmed.substring(1, trimmed.length() - 1).split("\\|", -1))
        .map(String::trim)
        .toList();
  }

  private static List<String> names(String cell) {
    List<String> names = new ArrayList<>();
    Matcher m = NAME.matcher(cell);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }
}
