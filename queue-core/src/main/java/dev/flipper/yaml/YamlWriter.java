package dev.flipper.yaml;

import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.DumperOptions.FlowStyle;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Writes a tree of maps, lists, strings, numbers and booleans as block YAML that people read: maps
 * in block style in their iteration order, lists of scalars inline ({@code needs: [a, b]}), strings
 * quoted only where YAML needs it, no line wrapping. The same tree always gives the same text.
 * Stateless and thread-safe.
 */
public final class YamlWriter {
  private YamlWriter() {}

  public static String write(Map<String, ?> tree) {
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(FlowStyle.BLOCK);
    options.setIndent(2);
    options.setSplitLines(false);
    options.setWidth(Integer.MAX_VALUE);
    options.setLineBreak(DumperOptions.LineBreak.UNIX);
    return new Yaml(new InlineLists(options), options).dump(tree);
  }

  /** Lists inline, maps in block style. */
  private static final class InlineLists extends Representer {
    InlineLists(DumperOptions options) {
      super(options);
    }

    @Override
    protected Node representSequence(Tag tag, Iterable<?> sequence, FlowStyle flowStyle) {
      return super.representSequence(tag, sequence, FlowStyle.FLOW);
    }
  }
}
