package dev.flipper.workflow.engine;

/**
 * The worker no longer holds the job: its lease ended and someone else claimed it, or an operator
 * changed or removed the job token. The worker must stop the job's process; its result is not
 * recorded.
 */
public final class LeaseLostException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LeaseLostException(String message) {
    super(message);
  }
}
