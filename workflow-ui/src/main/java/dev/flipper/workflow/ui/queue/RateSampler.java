package dev.flipper.workflow.ui.queue;

import dev.flipper.workflow.ui.queue.QueueViews.Counts;
import dev.flipper.workflow.ui.queue.QueueViews.Rates;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Estimates a queue's enqueue and finish rates from the counts the dashboard takes at each refresh:
 * the queue servers expose no rates over Thrift. The rate is the growth between now and the oldest
 * count of the last {@link #WINDOW} (at least {@link #MIN_SPAN} apart). Thread-safe.
 */
final class RateSampler {
  static final Duration WINDOW = Duration.ofMinutes(1);
  static final Duration MIN_SPAN = Duration.ofSeconds(2);

  private record Sample(Instant at, long total, long finished) {}

  private final Clock clock;
  private final Map<String, Deque<Sample>> samples = new HashMap<>();

  RateSampler(Clock clock) {
    this.clock = clock;
  }

  /** Records the queue's counts now and answers the rates since the oldest count of the window. */
  synchronized Rates sample(String queue, Counts counts) {
    Instant now = clock.instant();
    Deque<Sample> queueSamples = samples.computeIfAbsent(queue, q -> new ArrayDeque<>());
    while (queueSamples.size() > 1 && queueSamples.peekFirst().at().isBefore(now.minus(WINDOW))) {
      queueSamples.pollFirst();
    }
    Sample current = new Sample(now, counts.total(), (long) counts.succeeded() + counts.failed());
    Sample oldest = queueSamples.peekFirst();
    queueSamples.addLast(current);
    if (oldest == null) {
      return Rates.UNKNOWN;
    }
    Duration span = Duration.between(oldest.at(), now);
    if (span.compareTo(MIN_SPAN) < 0) {
      return Rates.UNKNOWN;
    }
    double seconds = span.toMillis() / 1000.0;
    return new Rates(
        round(Math.max(0, current.total() - oldest.total()) / seconds),
        round(Math.max(0, current.finished() - oldest.finished()) / seconds),
        Math.round(seconds));
  }

  /** Forgets queues no longer listed. */
  synchronized void retain(java.util.Collection<String> queues) {
    samples.keySet().retainAll(queues);
  }

  private static double round(double perSecond) {
    return Math.round(perSecond * 100) / 100.0;
  }
}
