package dev.flipper.yaml;

import dev.flipper.yaml.RawNode.Entry;
import dev.flipper.yaml.RawNode.Mapping;
import dev.flipper.yaml.RawNode.Scalar;
import dev.flipper.yaml.RawNode.Sequence;
import dev.flipper.yaml.RawNode.Where;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Turns YAML text into a {@link RawNode} tree with line numbers, using snakeyaml's composer (no
 * object construction, so no tags are ever instantiated and {@code 2026-01-01} stays text).
 * Duplicate keys are problems, not silent overwrites. Stateless and thread-safe.
 *
 * <p>Budgets (issue #25: a 585-byte alias bomb took 6.4 GB): at most {@link #MAX_CODE_POINTS} code
 * points of text, {@link #MAX_ALIASES} aliases to collections, {@link #MAX_DEPTH} levels of nesting
 * and {@link #MAX_NODES} nodes in the tree <em>after</em> alias expansion; a node that contains
 * itself through an alias (a recursive alias) is a problem, not a stack overflow. Each is one
 * problem line naming the limit.
 */
public final class YamlTreeReader {
  /** Text longer than this (in code points) is refused by the YAML reader. */
  public static final int MAX_CODE_POINTS = 4 * 1024 * 1024;

  /** Aliases ({@code *name}) to collections in one document. */
  public static final int MAX_ALIASES = 50;

  /** Nesting depth of collections, aliases expanded. */
  public static final int MAX_DEPTH = 50;

  /** Nodes (scalars, sequences and maps) of the tree, aliases expanded. */
  public static final int MAX_NODES = 200_000;

  private YamlTreeReader() {}

  /** Ends the conversion when a budget is exceeded; the message is the problem. */
  private static final class OverBudget extends RuntimeException {
    final Where where;

    OverBudget(Where where, String message) {
      super(message, null, false, false);
      this.where = where;
    }
  }

  /** Conversion state: the node count and the collections on the current path. */
  private static final class Walk {
    int nodes;
    final java.util.Set<Node> open =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  }

  /**
   * Reads {@code text}; {@code source} names it in messages ({@code conf.yaml}, or {@code --set
   * k=v} with {@code lineNumbers} false) and {@code path} is the key path of the root ("" for a
   * file). An empty document, or one that does not parse, returns empty.
   */
  public static Optional<RawNode> read(
      String source, boolean lineNumbers, String path, String text, Problems problems) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(true); // we report duplicates ourselves, with both lines
    options.setMaxAliasesForCollections(MAX_ALIASES);
    options.setAllowRecursiveKeys(false);
    options.setNestingDepthLimit(MAX_DEPTH);
    options.setCodePointLimit(MAX_CODE_POINTS);
    Node root;
    try {
      // What Yaml.compose does, without the constructor and representer that a Yaml object builds
      // and this reader never uses (a config's defaults are one read per setting).
      root =
          new Composer(
                  new ParserImpl(new StreamReader(new StringReader(text)), options),
                  new Resolver(),
                  options)
              .getSingleNode();
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
      problems.add(
          where(source, lineNumbers, mark),
          "YAML syntax error: "
              + oneLine(problem)
              + (mark != null ? " (column " + (mark.getColumn() + 1) + ")" : ""));
      return Optional.empty();
    } catch (YAMLException e) {
      problems.add(new Where(source, 0), "YAML error: " + oneLine(e.getMessage()));
      return Optional.empty();
    }
    if (root == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(convert(root, path, source, lineNumbers, problems, new Walk()));
    } catch (OverBudget e) {
      problems.add(e.where, e.getMessage());
      return Optional.empty();
    }
  }

  private static RawNode convert(
      Node node, String path, String source, boolean lineNumbers, Problems problems, Walk walk) {
    Where where = where(source, lineNumbers, node.getStartMark());
    if (++walk.nodes > MAX_NODES) {
      throw new OverBudget(
          new Where(source, 0),
          "YAML too large: more than "
              + MAX_NODES
              + " nodes with aliases expanded (the limit; an alias bomb?)");
    }
    if (!(node instanceof ScalarNode)) {
      if (walk.open.size() >= MAX_DEPTH) {
        throw new OverBudget(
            where,
            "YAML nested too deeply: more than " + MAX_DEPTH + " levels with aliases expanded");
      }
      if (!walk.open.add(node)) {
        throw new OverBudget(
            where, "recursive alias at '" + path + "': a collection contains itself; not allowed");
      }
    }
    try {
      return convertOpen(node, where, path, source, lineNumbers, problems, walk);
    } finally {
      walk.open.remove(node);
    }
  }

  private static RawNode convertOpen(
      Node node,
      Where where,
      String path,
      String source,
      boolean lineNumbers,
      Problems problems,
      Walk walk) {
    if (node instanceof ScalarNode scalar) {
      return new Scalar(scalar.getTag().equals(Tag.NULL) ? null : scalar.getValue(), where);
    }
    if (node instanceof SequenceNode sequence) {
      List<RawNode> items = new ArrayList<>();
      for (Node item : sequence.getValue()) {
        items.add(
            convert(item, path + "[" + items.size() + "]", source, lineNumbers, problems, walk));
      }
      return new Sequence(List.copyOf(items), where);
    }
    MappingNode mapping = (MappingNode) node;
    Map<String, Entry> entries = new LinkedHashMap<>();
    for (NodeTuple tuple : mapping.getValue()) {
      Node keyNode = tuple.getKeyNode();
      Where keyWhere = where(source, lineNumbers, keyNode.getStartMark());
      if (!(keyNode instanceof ScalarNode key) || key.getTag().equals(Tag.NULL)) {
        problems.add(keyWhere, "keys must be plain names");
        continue;
      }
      String keyPath = path.isEmpty() ? key.getValue() : path + "." + key.getValue();
      RawNode value = convert(tuple.getValueNode(), keyPath, source, lineNumbers, problems, walk);
      Entry previous = entries.get(key.getValue());
      if (previous != null) {
        String first = lineNumbers ? " (first at line " + previous.keyWhere().order() + ")" : "";
        problems.add(keyWhere, "duplicate key '" + keyPath + "'" + first);
        continue;
      }
      entries.put(key.getValue(), new Entry(key.getValue(), keyWhere, value));
    }
    return new Mapping(entries, where);
  }

  private static Where where(String source, boolean lineNumbers, Mark mark) {
    if (!lineNumbers || mark == null) {
      return new Where(source, Integer.MAX_VALUE);
    }
    return Where.line(source, mark.getLine() + 1);
  }

  private static String oneLine(String text) {
    return text == null ? "unreadable YAML" : text.replaceAll("\\s+", " ").strip();
  }
}
