package dev.flipper.yaml;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML document as a tree of plain nodes that remember where they were written, so every error
 * can name the file and line. Scalars keep their text; typing is the reader's caller's job (the
 * config binder, the workflow parser). Nodes are records; a {@link Mapping}'s entry map is mutable
 * only so that a caller can merge overrides into a freshly read tree, so do not share a tree
 * between threads while changing it.
 */
public sealed interface RawNode {

  /** Where the node was written: {@code conf.yaml:12} or {@code --set queue.port=x}. */
  Where where();

  /**
   * A location plus an ordering key (the line number) so that problems print in file order. An
   * empty label means "nowhere": problems there print as the bare message (used for objects built
   * in Java).
   */
  record Where(String label, int order) {
    /** No location: problems print without a {@code file:line:} prefix. */
    public static final Where NOWHERE = new Where("", Integer.MAX_VALUE);

    /** Line {@code line} (1-based) of {@code source}: label {@code source:line}. */
    public static Where line(String source, int line) {
      return new Where(source + ":" + line, line);
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /** A scalar; {@code text} is null for a YAML null (an empty value). */
  record Scalar(String text, Where where) implements RawNode {
    public boolean isNull() {
      return text == null;
    }
  }

  record Sequence(List<RawNode> items, Where where) implements RawNode {}

  /** A map; keys are unique (duplicates are reported while reading) and in file order. */
  record Mapping(Map<String, Entry> entries, Where where) implements RawNode {
    public static Mapping empty(Where where) {
      return new Mapping(new LinkedHashMap<>(), where);
    }
  }

  /** One key of a mapping, with where the key itself was written. */
  record Entry(String key, Where keyWhere, RawNode value) {}

  /**
   * How a node is named in "got ..." messages: {@code a list}, {@code a map}, {@code nothing},
   * {@code 'x'}.
   */
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
