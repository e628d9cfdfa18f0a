package dev.flipper.queue;

/**
 * A queue operation failed. The {@link #errorCode()} is PinLater's, the message says what was wrong
 * and what is allowed. Nothing was changed by a request that failed validation.
 */
public class QueueException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode errorCode;

  public QueueException(ErrorCode errorCode, String message) {
    super(message);
    this.errorCode = errorCode;
  }

  public QueueException(ErrorCode errorCode, String message, Throwable cause) {
    super(message, cause);
    this.errorCode = errorCode;
  }

  public ErrorCode errorCode() {
    return errorCode;
  }

  /**
   * An invalid argument that no specific PinLater code covers; travels as {@link
   * ErrorCode#UNKNOWN}.
   */
  public static QueueException invalid(String message) {
    return new QueueException(ErrorCode.UNKNOWN, "invalid request: " + message);
  }

  public static QueueException queueNotFound(String queue) {
    return new QueueException(
        ErrorCode.QUEUE_NOT_FOUND,
        "queue '" + queue + "' does not exist; create it first with createQueue");
  }

  @Override
  public String toString() {
    return "QueueException(" + errorCode + " " + errorCode.code() + "): " + getMessage();
  }
}
