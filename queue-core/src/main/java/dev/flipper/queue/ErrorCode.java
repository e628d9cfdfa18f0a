package dev.flipper.queue;

/**
 * Error codes of the PinLater protocol. Every {@link QueueException} carries one, so a Thrift client sees
 * the same code whatever the backend. The protocol has no generic "bad argument" code, so invalid
 * arguments that no specific code covers travel as {@link #UNKNOWN} with a message saying what was wrong.
 */
public enum ErrorCode {
  CONTINUATION_INVALID(400),
  PASSWORD_INVALID(403),
  QUEUE_NAME_INVALID(410),
  QUEUE_NAME_TOO_LONG(411),
  QUEUE_NOT_FOUND(413),
  PRIORITY_NOT_SUPPORTED(416),
  DEQUEUE_RATE_LIMITED(429),
  /** A job the server will not store, for example a body over the configured size limit. */
  ENQUEUE_REJECTED(430),
  UNKNOWN(500),
  NO_HEALTHY_SHARDS(501),
  SHARD_CONNECTION_FAILED(502);

  private final int code;

  ErrorCode(int code) {
    this.code = code;
  }

  /** The PinLater wire value. */
  public int code() {
    return code;
  }
}
