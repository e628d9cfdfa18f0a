package dev.flipper.launcher.queuetool;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The priorities an admin operation covers: the one given, or every level of the config's {@code
 * queue.priorityLevels}, which clients and servers must share. (The Thrift interface does not
 * report the number of levels; asking for counts until the server answers PRIORITY_NOT_SUPPORTED
 * would add an error to the server's metrics at every run.) Stateless.
 */
final class Priorities {
  private Priorities() {}

  static List<Integer> of(Integer given, int levels) {
    return given != null ? List.of(given) : IntStream.rangeClosed(1, levels).boxed().toList();
  }
}
