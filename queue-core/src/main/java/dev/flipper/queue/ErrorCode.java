package dev.flipper.queue;

/**
 * Error codes of the PinLater protocol. Every {@link QueueException} carries one, so a Thrift
 * client sees the same code whatever the backend. The protocol has no generic "bad argument" code,
 * so invalid arguments that no specific code covers travel as {@link #UNKNOWN} with a message
 * saying what was wrong.
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
  /** The shard could not be reached; it reports unhealthy for a cool-down. */
  SHARD_CONNECTION_FAILED(502),
  /**
   * The shard is reachable but every connection of this process's pool to it stayed in use for the
   * whole pool wait: back-pressure, nothing was done, and the shard stays healthy; retry later or
   * give the pool more connections. Flipper's own code: PinLater has none for it, and its clients
   * cannot read a code their protocol lacks (the Thrift field is required), so on the wire it
   * travels as {@link #UNKNOWN} with a message that starts "shard '...' is busy".
   */
  SHARD_BUSY(503);

  private final int code;

  ErrorCode(int code) {
    this.code = code;
  }

  /** The PinLater wire value ({@link #SHARD_BUSY} has none and travels as {@link #UNKNOWN}). */
  public int code() {
    return code;
  }

  /**
   * True if the shard did nothing because it cannot serve now (unreachable or busy): a request that
   * spans shards goes on with the others, and an enqueue may go to another shard.
   */
  public boolean shardUnavailable() {
    return this == SHARD_CONNECTION_FAILED || this == SHARD_BUSY;
  }
}
