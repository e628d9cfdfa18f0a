package dev.flipper.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.config.SettingType.DurationType;
import dev.flipper.config.SettingType.ObjectListType;
import dev.flipper.text.DurationText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md documents every key of {@link ConfigSchema} with the same type and default,
 * and nothing else: each table with the columns Key | Type | Default | Meaning is read, row by row.
 */
class DocAgreementTest {
  private static final Path DOC = Path.of("..", "docs", "configuration.md");

  /** One documented key. */
  private record Row(String key, String type, String defaultValue, int line) {}

  private static Map<String, Row> documented;
  private static Map<String, Setting> inCode;

  @BeforeAll
  static void read() throws IOException {
    documented = parseTables(Files.readAllLines(DOC));
    inCode = new LinkedHashMap<>();
    for (Setting setting : ConfigSchema.SETTINGS) {
      inCode.put(setting.key(), setting);
      if (setting.type() instanceof ObjectListType list) {
        for (Setting item : list.items()) {
          inCode.put(setting.key() + "[]." + item.key(), item);
        }
      }
    }
  }

  @Test
  void everyKeyInTheCodeIsDocumented() {
    assertThat(documented.keySet()).as("keys missing from " + DOC).containsAll(inCode.keySet());
  }

  @Test
  void everyDocumentedKeyExistsInTheCode() {
    assertThat(inCode.keySet())
        .as("keys in " + DOC + " that the code does not know")
        .containsAll(documented.keySet());
  }

  @Test
  void typesAndDefaultsAgree() {
    List<String> disagreements = new ArrayList<>();
    for (Map.Entry<String, Setting> entry : inCode.entrySet()) {
      Row row = documented.get(entry.getKey());
      if (row == null) {
        continue; // reported by everyKeyInTheCodeIsDocumented
      }
      Setting setting = entry.getValue();
      if (!row.type().equals(setting.type().docName())) {
        disagreements.add(
            DOC
                + ":"
                + row.line()
                + ": type of "
                + row.key()
                + " is '"
                + row.type()
                + "', code says '"
                + setting.type().docName()
                + "'");
      }
      if (!sameDefault(setting, row.defaultValue())) {
        disagreements.add(
            DOC
                + ":"
                + row.line()
                + ": default of "
                + row.key()
                + " is '"
                + row.defaultValue()
                + "', code says '"
                + setting.docDefault()
                + "'");
      }
    }
    assertThat(disagreements).isEmpty();
  }

  @Test
  void everySectionHasAHeading() throws IOException {
    List<String> lines = Files.readAllLines(DOC);
    for (ConfigSchema.Section section : ConfigSchema.SECTIONS) {
      assertThat(lines)
          .as("heading for section " + section.name())
          .contains("## " + section.name());
    }
  }

  /**
   * The page writes the code's default, or for a duration the same length in another unit: the code
   * writes a module's constant in the shortest exact unit (1d, 1m), the page may say 24h or 60s.
   */
  private static boolean sameDefault(Setting setting, String documented) {
    if (documented.equals(setting.docDefault())) {
      return true;
    }
    return setting.type() instanceof DurationType
        && DurationText.parse(documented).isPresent()
        && DurationText.parse(documented)
            .equals(setting.defaultYaml().flatMap(DurationText::parse));
  }

  /** Rows of every Key | Type | Default | Meaning table; a key documented twice fails. */
  private static Map<String, Row> parseTables(List<String> lines) {
    Map<String, Row> rows = new LinkedHashMap<>();
    boolean inTable = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.replace(" ", "").equals("|Key|Type|Default|Meaning|")) {
        inTable = true;
        i++; // the | --- | separator
        continue;
      }
      if (!inTable || !line.startsWith("|")) {
        inTable = false;
        continue;
      }
      String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
      assertThat(cells).as(DOC + ":" + (i + 1) + " must have 4 cells").hasSize(4);
      Row row = new Row(unquote(cells[0]), cells[1].strip(), unquote(cells[2]), i + 1);
      assertThat(rows.put(row.key(), row))
          .as(DOC + ":" + (i + 1) + " documents " + row.key() + " twice")
          .isNull();
    }
    assertThat(rows).as("tables found in " + DOC).isNotEmpty();
    return rows;
  }

  private static String unquote(String cell) {
    String text = cell.strip();
    return text.startsWith("`") && text.endsWith("`") && text.length() >= 2
        ? text.substring(1, text.length() - 1)
        : text;
  }
}
