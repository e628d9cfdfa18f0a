package dev.flipper.queue.server.internal;

import com.codahale.metrics.Timer;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.client.wire.WireMapping;
import dev.flipper.queue.thrift.PinLaterException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.thrift.async.AsyncMethodCallback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one Thrift call: times it, counts it while in flight, and answers the client with the result or with
 * a {@link PinLaterException}. A {@link QueueException} keeps its code and message; anything else is logged
 * here, once, with its stack trace, and reaches the client as UNKNOWN. Thread-safe.
 */
final class CallRunner {
  private static final Logger log = LoggerFactory.getLogger(CallRunner.class);

  private final ServerMetrics metrics;
  private final AtomicInteger inFlight = new AtomicInteger();

  CallRunner(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  int inFlight() {
    return inFlight.get();
  }

  /** Runs a call whose result is known when {@code call} returns. */
  <T> void now(String method, AsyncMethodCallback<T> callback, Supplier<T> call) {
    later(method, callback, () -> CompletableFuture.completedFuture(call.get()));
  }

  /** Runs a call that may complete later (long-poll dequeue). */
  <T> void later(String method, AsyncMethodCallback<T> callback, Supplier<CompletionStage<T>> call) {
    inFlight.incrementAndGet();
    Timer.Context timer = metrics.time(method);
    CompletionStage<T> stage;
    try {
      stage = call.get();
    } catch (RuntimeException | Error e) {
      stage = CompletableFuture.failedFuture(e);
    }
    stage.whenComplete((value, error) -> {
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

  private PinLaterException toPinLaterException(String method, Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof QueueException queueError) {
      metrics.error(method, queueError.errorCode());
      if (queueError.getCause() != null) {
        log.warn("{} failed: {}", method, queueError.toString(), queueError.getCause());
      } else {
        log.debug("{} failed: {}", method, queueError.toString());
      }
      String message = queueError.getMessage() == null ? queueError.errorCode().name() : queueError.getMessage();
      return new PinLaterException(WireMapping.toThrift(queueError.errorCode()), message);
    }
    metrics.error(method, ErrorCode.UNKNOWN);
    log.error("{} failed with an unexpected error; the client gets UNKNOWN", method, cause);
    return new PinLaterException(dev.flipper.queue.thrift.ErrorCode.UNKNOWN,
        method + " failed on the server: " + cause + " (details in the server log)");
  }
}
