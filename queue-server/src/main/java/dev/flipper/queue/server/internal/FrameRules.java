package dev.flipper.queue.server.internal;

import dev.flipper.thrift.PeerFaults;

/**
 * What every connection of one queue server checks its frames against: the frame limit, the shared
 * read budget, where faults are counted, and how a refused call is answered.
 */
record FrameRules(
    int maxFrameBytes, ReadBudget budget, PeerFaults faults, RefusalAnswer refusalAnswer) {

  /**
   * The answer to a refused frame, given the bytes of its start that arrived: {@link #NEED_MORE} if
   * they do not hold the whole message header yet, null to close the connection instead.
   */
  @FunctionalInterface
  interface RefusalAnswer {
    byte[] NEED_MORE = new byte[0];

    byte[] answer(byte[] frameStart, int frameBytes, String why);
  }
}
