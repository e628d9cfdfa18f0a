package dev.flipper.workflow.engine;

import dev.flipper.token.Token;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.internal.DefinitionStore;
import dev.flipper.workflow.tokens.Listing;
import java.util.List;
import java.util.Optional;

/**
 * Workflow definitions stored in the master ({@code /definition/<wf>}), so that workers, the
 * scheduler, the UI and the CLI share them without a shared filesystem. Thread-safe.
 */
public final class Definitions {
  private final DefinitionStore store;

  Definitions(DefinitionStore store) {
    this.store = store;
  }

  /**
   * Stores the definitions in one atomic modify: new ones are added, changed ones (a different
   * canonical YAML) rewritten, unchanged ones left alone. With {@code prune}, stored workflows not
   * among {@code definitions} are removed in the same modify. Running instances are not affected:
   * each job carries a snapshot of its definition. Retried as a whole if another apply races with
   * it.
   *
   * @throws IllegalArgumentException if a workflow name appears twice
   */
  public ApplyResult apply(List<WorkflowDefinition> definitions, boolean prune) {
    return store.apply(definitions, prune);
  }

  /** Adds or changes; never removes. */
  public ApplyResult apply(List<WorkflowDefinition> definitions) {
    return apply(definitions, false);
  }

  /**
   * The stored definition of a workflow.
   *
   * @throws DamagedDefinitionException if it does not parse or its text does not match its version
   */
  public Optional<StoredDefinition> get(String workflow) {
    return store.get(workflow);
  }

  /**
   * The definition a token read from the master holds (its name under {@code
   * TokenLayout.DEFINITIONS}).
   */
  public static StoredDefinition decode(Token token) {
    return DefinitionStore.decode(token);
  }

  /**
   * Every stored definition, by name; a damaged one is left out with a warning (see {@link
   * #listing}).
   */
  public List<StoredDefinition> list() {
    return store.list();
  }

  /**
   * Every stored definition, with those that do not parse or whose text does not match their
   * version as damaged entries ({@code flipper workflow apply} of their file repairs them).
   */
  public Listing<StoredDefinition> listing() {
    return store.listing();
  }
}
