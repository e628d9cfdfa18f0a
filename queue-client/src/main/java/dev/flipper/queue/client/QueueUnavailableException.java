package dev.flipper.queue.client;

import dev.flipper.queue.ErrorCode;

/**
 * No answer from any server: connecting failed, the connection broke, or the request timed out. Its
 * error code is UNKNOWN. {@link #mayHaveBeenApplied()} tells whether the request had been sent, in
 * which case the server may have carried it out (an enqueue may have stored its jobs).
 */
public class QueueUnavailableException extends QueueClientException {
  private static final long serialVersionUID = 1L;

  private final boolean mayHaveBeenApplied;

  public QueueUnavailableException(String message, boolean mayHaveBeenApplied, Throwable cause) {
    super(ErrorCode.UNKNOWN, message, cause);
    this.mayHaveBeenApplied = mayHaveBeenApplied;
  }

  public boolean mayHaveBeenApplied() {
    return mayHaveBeenApplied;
  }
}
