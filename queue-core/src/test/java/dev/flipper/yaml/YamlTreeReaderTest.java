package dev.flipper.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.yaml.RawNode.Mapping;
import dev.flipper.yaml.RawNode.Scalar;
import dev.flipper.yaml.RawNode.Sequence;
import dev.flipper.yaml.RawNode.Where;
import java.util.List;
import org.junit.jupiter.api.Test;

class YamlTreeReaderTest {
  private final Problems problems = new Problems();

  @Test
  void keepsLinesTextAndOrder() {
    String text = "b: 1\na:\n  list: [x, 2026-01-01T00:00:00Z]\n  empty:\n";
    Mapping root = (Mapping) YamlTreeReader.read("f.yaml", true, "", text, problems).orElseThrow();

    assertThat(problems.isEmpty()).isTrue();
    assertThat(root.entries().keySet()).containsExactly("b", "a");
    Mapping a = (Mapping) root.entries().get("a").value();
    assertThat(root.entries().get("a").keyWhere()).isEqualTo(Where.line("f.yaml", 2));
    Sequence list = (Sequence) a.entries().get("list").value();
    assertThat(list.where().label()).isEqualTo("f.yaml:3");
    assertThat(((Scalar) list.items().get(1)).text())
        .isEqualTo("2026-01-01T00:00:00Z"); // no timestamp typing
    assertThat(((Scalar) a.entries().get("empty").value()).isNull()).isTrue();
  }

  @Test
  void reportsEveryDuplicateKeyWithTheFirstLine() {
    YamlTreeReader.read("f.yaml", true, "", "a: 1\nb:\n  c: 1\n  c: 2\na: 3\n", problems);

    assertThat(problems.lines())
        .containsExactly(
            "f.yaml:4: duplicate key 'b.c' (first at line 3)",
            "f.yaml:5: duplicate key 'a' (first at line 1)");
  }

  @Test
  void reportsSyntaxErrorsWithLineAndColumn() {
    assertThat(YamlTreeReader.read("f.yaml", true, "", "a: [1, 2\nb: 3\n", problems)).isEmpty();

    assertThat(problems.lines()).hasSize(1);
    assertThat(problems.lines().get(0))
        .startsWith("f.yaml:")
        .contains("YAML syntax error")
        .contains("(column ");
  }

  @Test
  void emptyTextIsNoDocument() {
    assertThat(YamlTreeReader.read("f.yaml", true, "", "", problems)).isEmpty();
    assertThat(problems.isEmpty()).isTrue();
  }

  @Test
  void problemsPrintInLineOrderAndNowhereAsTheBareMessage() {
    problems.add(Where.line("f.yaml", 9), "late");
    problems.add(Where.NOWHERE, "built in Java");
    problems.add(Where.line("f.yaml", 2), "early");
    problems.add(Where.line("f.yaml", 2), "early");

    assertThat(problems.lines())
        .isEqualTo(List.of("f.yaml:2: early", "f.yaml:9: late", "built in Java"));
  }
}
