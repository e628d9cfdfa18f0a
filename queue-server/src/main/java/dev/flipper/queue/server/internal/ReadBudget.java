package dev.flipper.queue.server.internal;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Memory for request frames being read or served, so that a few peers cannot take it all. A frame
 * up to {@link #SMALL_FRAME_BYTES} is always admitted (ordinary calls never wait behind big ones;
 * they cost at most that much per open connection). A larger frame is admitted only while all large
 * frames together stay within the budget, the frames of its peer address within a quarter of it,
 * and the heap has twice its size free. libthrift's own budget makes every later frame wait for the
 * memory instead, with no time limit. Thread-safe.
 */
public final class ReadBudget {
  /** Frames up to this size are admitted without counting. */
  public static final int SMALL_FRAME_BYTES = 64 * 1024;

  private final long budgetBytes;
  private final long perPeerBytes;
  private final LongSupplier freeHeapBytes;
  private final Map<InetAddress, Long> byPeer = new HashMap<>();
  private long heldBytes;

  /** A budget of {@code budgetBytes} checked against this JVM's free heap. */
  public ReadBudget(long budgetBytes) {
    this(budgetBytes, ReadBudget::freeHeap);
  }

  ReadBudget(long budgetBytes, LongSupplier freeHeapBytes) {
    this.budgetBytes = budgetBytes;
    this.perPeerBytes = Math.max(budgetBytes / 4, 1);
    this.freeHeapBytes = freeHeapBytes;
  }

  /**
   * Reserves {@code bytes} for a frame from {@code peer}; returns what was reserved (0 for a small
   * frame) to {@link #release} later, or -1 if the frame is refused.
   */
  public long admit(InetAddress peer, long bytes) {
    if (bytes <= SMALL_FRAME_BYTES) {
      return 0;
    }
    synchronized (this) {
      long fromPeer = byPeer.getOrDefault(peer, 0L);
      if (heldBytes + bytes > budgetBytes
          || fromPeer + bytes > perPeerBytes
          || freeHeapBytes.getAsLong() < 2 * bytes) {
        return -1;
      }
      heldBytes += bytes;
      byPeer.put(peer, fromPeer + bytes);
      return bytes;
    }
  }

  /** Gives back what {@link #admit} reserved. */
  public void release(InetAddress peer, long bytes) {
    if (bytes <= 0) {
      return;
    }
    synchronized (this) {
      heldBytes -= bytes;
      byPeer.computeIfPresent(peer, (p, held) -> held - bytes <= 0 ? null : held - bytes);
    }
  }

  /** Bytes reserved now by large frames. */
  public synchronized long heldBytes() {
    return heldBytes;
  }

  private static long freeHeap() {
    Runtime runtime = Runtime.getRuntime();
    return runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
  }
}
