package dev.flipper.queue.worker;

import dev.flipper.queue.AckParams;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acks waiting to be delivered. Each keeps its deadline: the moment the job's claim has surely
 * expired in the queue, after which the queue has already retried or failed the job and the ack
 * must not be sent (acks are not checked against claims, so a late one could close someone else's
 * attempt). Thread-safe.
 */
final class PendingAcks {
  private static final Logger log = LoggerFactory.getLogger(PendingAcks.class);

  /** One ack and when it stops being safe to send, in epoch milliseconds of the worker's clock. */
  record Ack(AckParams.Item item, boolean succeeded, long deadlineMillis) {}

  private final String queue;
  private final LongSupplier clockMillis;
  private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
  final LongAdder expired = new LongAdder();

  PendingAcks(String queue, LongSupplier clockMillis) {
    this.queue = queue;
    this.clockMillis = clockMillis;
  }

  void add(Ack ack) {
    acks.add(ack);
  }

  /** Puts back acks whose delivery failed. */
  void requeue(List<Ack> batch) {
    acks.addAll(batch);
  }

  int size() {
    return acks.size();
  }

  boolean isEmpty() {
    return acks.isEmpty();
  }

  /** Takes up to {@code max} sendable acks; only succeeded ones when {@code succeededOnly}. */
  List<Ack> take(int max, boolean succeededOnly) {
    List<Ack> batch = new ArrayList<>();
    List<Ack> skipped = new ArrayList<>();
    long now = clockMillis.getAsLong();
    Ack ack;
    while (batch.size() < max && (ack = acks.poll()) != null) {
      if (now > ack.deadlineMillis()) {
        expired.increment();
        log.warn(
            "giving up the {} ack of job {} on queue {}: its claim has expired, so the queue retries "
                + "or fails the job itself",
            ack.succeeded() ? "success" : "failure",
            ack.item().job(),
            queue);
      } else if (succeededOnly && !ack.succeeded()) {
        skipped.add(ack);
      } else {
        batch.add(ack);
      }
    }
    acks.addAll(skipped);
    return batch;
  }

  AckParams toParams(List<Ack> batch) {
    List<AckParams.Item> succeeded = new ArrayList<>();
    List<AckParams.Item> failed = new ArrayList<>();
    for (Ack ack : batch) {
      (ack.succeeded() ? succeeded : failed).add(ack.item());
    }
    return new AckParams(queue, succeeded, failed);
  }
}
