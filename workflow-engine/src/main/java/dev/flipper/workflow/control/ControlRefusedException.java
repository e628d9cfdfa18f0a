package dev.flipper.workflow.control;

/**
 * An operation refused because of the state it found (too many running instances, a job that is
 * running): nothing was changed. The message says why and what to do.
 */
public final class ControlRefusedException extends IllegalStateException {
  public ControlRefusedException(String message) {
    super(message);
  }
}
