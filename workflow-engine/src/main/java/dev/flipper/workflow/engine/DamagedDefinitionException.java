package dev.flipper.workflow.engine;

/**
 * A stored definition whose text does not match its content version (damaged or changed in the
 * store behind the engine's back). Applying its file again rewrites it.
 */
public final class DamagedDefinitionException extends IllegalStateException {
  public DamagedDefinitionException(String message) {
    super(message);
  }
}
