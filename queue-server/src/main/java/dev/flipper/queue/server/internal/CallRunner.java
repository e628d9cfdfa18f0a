package dev.flipper.queue.server.internal;

import com.codahale.metrics.Timer;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.thrift.PinLaterException;
import dev.flipper.queue.wire.WireMapping;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.thrift.async.AsyncMethodCallback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one Thrift call: on the selector thread that read it or on a worker thread, times it, counts
 * it while in flight, and answers the client with the result or with a {@link PinLaterException}. A
 * {@link QueueException} keeps its code and message; anything else is logged here, once, with its
 * stack trace, and reaches the client as UNKNOWN. Thread-safe.
 *
 * <p>Handing a call to a worker thread and its answer back to the selector costs two thread
 * wake-ups, more than a Redis or in-memory store takes to answer a small enqueue, dequeue or ack.
 * So a {@linkplain #direct direct} call runs where it was read while the store has answered that
 * method within the direct-call limit on average; a slower store (JDBC, a distant Redis) or a slow
 * spell sends it to the workers until the average falls again. Calls that may take long (scans,
 * counts, bulk deletes, admin calls) always go to the workers.
 */
final class CallRunner {
  private static final Logger log = LoggerFactory.getLogger(CallRunner.class);

  /** Weight of a new call's store time in its method's average. */
  private static final double NEW_SAMPLE_WEIGHT = 0.1;

  private final ServerMetrics metrics;
  private final Executor workers;
  private final int maxQueuedCalls;
  private final long directLimitNanos;
  private final Map<String, StoreTime> storeTimes = new ConcurrentHashMap<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final LongSupplier nanoTime;
  private final QueueAccess access;

  /**
   * @param workers runs the calls that do not run where they were read; may refuse a call when full
   * @param directLimit the longest average store time of a method whose calls run where they are
   *     read; 0: never
   * @param access which callers may make which calls; a refused call is answered at once
   */
  CallRunner(
      ServerMetrics metrics,
      Executor workers,
      int maxQueuedCalls,
      Duration directLimit,
      QueueAccess access) {
    this(metrics, workers, maxQueuedCalls, directLimit, System::nanoTime, access);
  }

  CallRunner(
      ServerMetrics metrics,
      Executor workers,
      int maxQueuedCalls,
      Duration directLimit,
      LongSupplier nanoTime) {
    this(metrics, workers, maxQueuedCalls, directLimit, nanoTime, QueueAccess.open());
  }

  private CallRunner(
      ServerMetrics metrics,
      Executor workers,
      int maxQueuedCalls,
      Duration directLimit,
      LongSupplier nanoTime,
      QueueAccess access) {
    this.access = access;
    this.metrics = metrics;
    this.workers = workers;
    this.maxQueuedCalls = maxQueuedCalls;
    this.directLimitNanos = directLimit.toNanos();
    this.nanoTime = nanoTime;
  }

  int inFlight() {
    return inFlight.get();
  }

  /**
   * A call that may take long, whose result is known when {@code call} returns: on a worker thread.
   */
  <T> void pooled(String method, AsyncMethodCallback<T> callback, Supplier<T> call) {
    if (!access.admit(method, callback)) {
      return;
    }
    submit(
        method, callback, () -> CompletableFuture.completedFuture(call.get()), storeTime(method));
  }

  /**
   * A {@link #pooled} call that holds one of {@code slots} from now until it ends; with none free
   * it is refused at once, on this thread (null slots: none needed).
   */
  <T> void pooled(
      String method, AsyncMethodCallback<T> callback, FilterSlots slots, Supplier<T> call) {
    if (slots == null) {
      pooled(method, callback, call);
      return;
    }
    if (!slots.tryTake()) {
      callback.onError(toPinLaterException(method, slots.refusal(method)));
      return;
    }
    Supplier<CompletionStage<T>> holding =
        () -> {
          try {
            return CompletableFuture.completedFuture(call.get());
          } finally {
            slots.release();
          }
        };
    if (!submit(method, callback, holding, storeTime(method))) {
      slots.release();
    }
  }

  /** A hot-path call whose result is known when {@code call} returns; see the class comment. */
  <T> void direct(String method, AsyncMethodCallback<T> callback, Supplier<T> call) {
    directLater(method, callback, () -> CompletableFuture.completedFuture(call.get()));
  }

  /** A hot-path call that may complete later (long-poll dequeue); see the class comment. */
  <T> void directLater(
      String method, AsyncMethodCallback<T> callback, Supplier<CompletionStage<T>> call) {
    if (!access.admit(method, callback)) {
      return;
    }
    StoreTime time = storeTime(method);
    if (directLimitNanos > 0 && time.within(directLimitNanos)) {
      inFlight.incrementAndGet();
      run(method, callback, call, time, metrics.time(method));
    } else {
      submit(method, callback, call, time);
    }
  }

  private StoreTime storeTime(String method) {
    return storeTimes.computeIfAbsent(method, m -> new StoreTime());
  }

  /** False if the workers refused it (the callback then has its error). */
  private <T> boolean submit(
      String method,
      AsyncMethodCallback<T> callback,
      Supplier<CompletionStage<T>> call,
      StoreTime time) {
    inFlight.incrementAndGet(); // from now: a graceful stop waits for calls queued for a worker too
    Timer.Context timer = metrics.time(method);
    try {
      workers.execute(() -> run(method, callback, call, time, timer));
      return true;
    } catch (RejectedExecutionException e) {
      inFlight.decrementAndGet();
      timer.stop();
      metrics.error(method, ErrorCode.UNKNOWN);
      callback.onError(
          new PinLaterException(
              dev.flipper.queue.thrift.ErrorCode.UNKNOWN,
              method
                  + " refused: the "
                  + "queue server is overloaded ("
                  + maxQueuedCalls
                  + " calls already wait for a worker thread); nothing "
                  + "was done, try again later"));
      return false;
    }
  }

  private <T> void run(
      String method,
      AsyncMethodCallback<T> callback,
      Supplier<CompletionStage<T>> call,
      StoreTime time,
      Timer.Context timer) {
    CompletionStage<T> stage;
    long start = nanoTime.getAsLong();
    try {
      stage = call.get();
    } catch (RuntimeException | Error e) {
      stage = CompletableFuture.failedFuture(e);
    }
    time.add(nanoTime.getAsLong() - start);
    stage.whenComplete(
        (value, error) -> {
          try {
            timer.stop();
            if (error == null) {
              callback.onComplete(value);
            } else {
              callback.onError(toPinLaterException(method, error));
            }
          } finally {
            inFlight.decrementAndGet();
          }
        });
  }

  /**
   * The moving average of how long the store took to answer one method's calls (the synchronous
   * part).
   */
  private static final class StoreTime {
    private volatile double averageNanos = Double.NaN; // unknown until a call has run on a worker

    boolean within(long limitNanos) {
      return averageNanos <= limitNanos; // false while unknown (NaN)
    }

    void add(long nanos) {
      double average = averageNanos; // a lost update between racing calls only drops a sample
      averageNanos =
          Double.isNaN(average) ? nanos : average + NEW_SAMPLE_WEIGHT * (nanos - average);
    }
  }

  private PinLaterException toPinLaterException(String method, Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof QueueException queueError) {
      metrics.error(method, queueError.errorCode());
      if (queueError.getCause() != null) {
        log.warn("{} failed: {}", method, queueError.toString(), queueError.getCause());
      } else {
        log.debug("{} failed: {}", method, queueError.toString());
      }
      String message =
          queueError.getMessage() == null ? queueError.errorCode().name() : queueError.getMessage();
      return new PinLaterException(WireMapping.toThrift(queueError.errorCode()), message);
    }
    metrics.error(method, ErrorCode.UNKNOWN);
    log.error("{} failed with an unexpected error; the client gets UNKNOWN", method, cause);
    return new PinLaterException(
        dev.flipper.queue.thrift.ErrorCode.UNKNOWN,
        method + " failed on the server: " + cause + " (details in the server log)");
  }
}
