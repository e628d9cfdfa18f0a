package dev.flipper.queue.client;

import dev.flipper.queue.ErrorCode;

/**
 * A queue call failed. When the server answered, {@link #errorCode()} is its PinLater code (for
 * example QUEUE_NOT_FOUND or DEQUEUE_RATE_LIMITED) and the message is the server's. When no server
 * could be reached or the connection broke, the exception is a {@link QueueUnavailableException}.
 */
public class QueueClientException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode errorCode;

  public QueueClientException(ErrorCode errorCode, String message) {
    super(message);
    this.errorCode = errorCode;
  }

  public QueueClientException(ErrorCode errorCode, String message, Throwable cause) {
    super(message, cause);
    this.errorCode = errorCode;
  }

  public ErrorCode errorCode() {
    return errorCode;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(" + errorCode + "): " + getMessage();
  }
}
