package dev.flipper.workflow.engine;

import dev.flipper.workflow.tokens.DamagedToken;
import dev.flipper.workflow.tokens.DamagedTokenException;

/**
 * A stored definition that does not parse, or whose text does not match its content version
 * (changed in the store behind the engine's back). Applying its file again rewrites it.
 */
public final class DamagedDefinitionException extends DamagedTokenException {
  private static final long serialVersionUID = 1L;

  public DamagedDefinitionException(DamagedToken damage) {
    super(damage);
  }
}
