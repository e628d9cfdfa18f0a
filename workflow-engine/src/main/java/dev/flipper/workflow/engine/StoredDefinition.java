package dev.flipper.workflow.engine;

import dev.flipper.workflow.definition.WorkflowDefinition;
import java.time.Instant;

/**
 * A workflow definition as stored in the master. Immutable.
 *
 * @param version content version: the first 16 hex digits of the SHA-256 of the canonical YAML
 * @param appliedAt when this version was applied
 */
public record StoredDefinition(WorkflowDefinition definition, String version, Instant appliedAt) {
  public String name() {
    return definition.name();
  }
}
