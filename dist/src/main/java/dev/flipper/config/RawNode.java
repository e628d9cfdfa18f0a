package dev.flipper.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The YAML file (or a {@code --set} value) as a tree of plain nodes that remember where they were written,
 * so every error can name the file and line. Scalars keep their text; typing happens in {@link Binder}.
 */
sealed interface RawNode {

  /** Where the node was written: {@code conf.yaml:12} or {@code --set queue.port=x}. */
  Where where();

  /** A location plus an ordering key (line number) so errors print in file order. */
  record Where(String label, int order) {
    @Override
    public String toString() {
      return label;
    }
  }

  /** A scalar; {@code text} is null for a YAML null (an empty value). */
  record Scalar(String text, Where where) implements RawNode {
    boolean isNull() {
      return text == null;
    }
  }

  record Sequence(List<RawNode> items, Where where) implements RawNode {}

  /** A map; keys are unique (duplicates are reported while reading). */
  record Mapping(Map<String, Entry> entries, Where where) implements RawNode {
    static Mapping empty(Where where) {
      return new Mapping(new LinkedHashMap<>(), where);
    }
  }

  /** One key of a mapping, with where the key itself was written. */
  record Entry(String key, Where keyWhere, RawNode value) {}

  /** How a node is named in "got ..." messages. */
  static String describe(RawNode node) {
    if (node instanceof Sequence) {
      return "a list";
    }
    if (node instanceof Mapping) {
      return "a map";
    }
    Scalar scalar = (Scalar) node;
    return scalar.isNull() ? "nothing" : "'" + scalar.text() + "'";
  }
}
