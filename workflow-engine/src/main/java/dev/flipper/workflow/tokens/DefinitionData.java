package dev.flipper.workflow.tokens;

/**
 * A stored workflow definition ({@code kind: "definition"}, token {@code /definition/<wf>}): the
 * canonical YAML text, readable as is, and its content version.
 */
public final class DefinitionData extends TokenData {
  public String workflow;

  /** The first 16 hex digits of the SHA-256 of {@link #yaml}: equal text, equal version. */
  public String version;

  public long appliedMillis;

  /**
   * {@code WorkflowDefinition.toYaml()}: defaults written out, so equal definitions give equal
   * text.
   */
  public String yaml;

  public DefinitionData() {
    super("definition");
  }
}
