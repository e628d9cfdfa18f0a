package dev.flipper.launcher.queuetool;

import dev.flipper.queue.CountParams;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobState;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueClientException;
import java.util.ArrayList;
import java.util.List;

/**
 * The priorities an admin operation covers: the one given, or every level the server supports. The
 * Thrift interface does not report the number of levels, so it is found by asking for counts of
 * priority 1, 2, ... until the server answers PRIORITY_NOT_SUPPORTED (cheap: counts are capped and
 * indexed). Stateless.
 */
final class Priorities {
  /** PinLater priorities are one byte. */
  private static final int MAX_LEVELS = 127;

  private Priorities() {}

  static List<Integer> of(QueueClient client, String queue, Integer given) {
    if (given != null) {
      return List.of(given);
    }
    List<Integer> levels = new ArrayList<>();
    for (int priority = 1; priority <= MAX_LEVELS; priority++) {
      try {
        client.count(new CountParams(queue, JobState.PENDING, priority, false, null));
      } catch (QueueClientException e) {
        if (e.errorCode() == ErrorCode.PRIORITY_NOT_SUPPORTED && priority > 1) {
          break;
        }
        throw e;
      }
      levels.add(priority);
    }
    return levels;
  }
}
