package dev.flipper.queue.redis.internal;

/**
 * Whether a shard is reachable: live until {@code deadAfter} pings in a row fail or an operation
 * hits a connection error; live again after {@code liveAfter} pings in a row succeed. Thread-safe.
 */
public final class ShardHealth {
  private final int deadAfter;
  private final int liveAfter;
  private boolean live = true;
  private int failuresInRow;
  private int successesInRow;

  public ShardHealth(int deadAfter, int liveAfter) {
    this.deadAfter = deadAfter;
    this.liveAfter = liveAfter;
  }

  public synchronized boolean live() {
    return live;
  }

  /** Returns true if this ping made the shard live again. */
  public synchronized boolean pingSucceeded() {
    failuresInRow = 0;
    successesInRow++;
    if (!live && successesInRow >= liveAfter) {
      live = true;
      return true;
    }
    return false;
  }

  /** Returns true if this ping made the shard dead. */
  public synchronized boolean pingFailed() {
    successesInRow = 0;
    failuresInRow++;
    if (live && failuresInRow >= deadAfter) {
      live = false;
      return true;
    }
    return false;
  }

  /** An operation could not reach the shard: dead at once. Returns true if it was live. */
  public synchronized boolean connectionFailed() {
    successesInRow = 0;
    failuresInRow = Math.max(failuresInRow, deadAfter);
    boolean wasLive = live;
    live = false;
    return wasLive;
  }
}
