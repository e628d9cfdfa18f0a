package dev.flipper.queue.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.queue.thrift.ErrorCode;
import dev.flipper.queue.thrift.PinLaterException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.thrift.async.AsyncMethodCallback;
import org.junit.jupiter.api.Test;

/**
 * Where {@link CallRunner} runs a call: on the reading thread while the store is quick, else on a
 * worker.
 */
class CallRunnerTest {
  private static final Duration LIMIT = Duration.ofNanos(200_000);

  private final AtomicLong now = new AtomicLong();
  private final List<Runnable> queued = new ArrayList<>();
  private boolean onWorker; // the test thread plays the worker while it runs a queued task
  private final Executor workers = queued::add;
  private final CallRunner calls =
      new CallRunner(new ServerMetrics(new MetricRegistry()), workers, 10, LIMIT, now::get);
  private final Answers answers = new Answers();

  /**
   * Runs a direct enqueue that the store answers in {@code storeNanos}; returns true if it ran
   * here.
   */
  private boolean enqueueTaking(long storeNanos) {
    boolean[] ranHere = {false};
    calls.direct(
        "enqueueJobs",
        answers,
        () -> {
          ranHere[0] = !onWorker;
          now.addAndGet(storeNanos);
          return "ok";
        });
    runQueued();
    return ranHere[0];
  }

  private void runQueued() {
    while (!queued.isEmpty()) {
      onWorker = true;
      try {
        queued.remove(0).run();
      } finally {
        onWorker = false;
      }
    }
  }

  @Test
  void aMethodRunsOnAWorkerUntilItsStoreTimeIsKnownThenWhereItIsReadWhileQuick() {
    assertThat(enqueueTaking(50_000)).as("first call: store time unknown").isFalse();
    assertThat(enqueueTaking(50_000)).as("50 µs on average: direct").isTrue();
    assertThat(enqueueTaking(50_000)).isTrue();
    assertThat(answers.values).containsExactly("ok", "ok", "ok");
  }

  @Test
  void aSlowSpellSendsCallsToTheWorkersUntilTheAverageFallsAgain() {
    enqueueTaking(50_000);
    assertThat(enqueueTaking(5_000_000)).as("ran directly, then found slow").isTrue();
    List<Boolean> where = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      where.add(enqueueTaking(50_000));
    }
    assertThat(where.get(0)).as("after a 5 ms call: on a worker").isFalse();
    assertThat(where.get(where.size() - 1)).as("quick again").isTrue();
    assertThat(answers.values).hasSize(42).containsOnly("ok");
  }

  @Test
  void aStoreSlowerThanTheLimitStaysOnTheWorkers() {
    for (int i = 0; i < 10; i++) {
      assertThat(enqueueTaking(2_000_000)).as("call " + i).isFalse();
    }
  }

  @Test
  void pooledCallsAlwaysRunOnAWorker() {
    for (int i = 0; i < 3; i++) {
      calls.pooled("scanJobs", answers, () -> "page");
      assertThat(queued).as("call " + i + " queued for a worker").hasSize(1);
      runQueued();
    }
    assertThat(answers.values).containsExactly("page", "page", "page");
  }

  @Test
  void aZeroLimitNeverRunsACallWhereItIsRead() {
    CallRunner never =
        new CallRunner(
            new ServerMetrics(new MetricRegistry()), workers, 10, Duration.ZERO, now::get);
    for (int i = 0; i < 3; i++) {
      never.direct("enqueueJobs", answers, () -> "ok");
      assertThat(queued).hasSize(1);
      runQueued();
    }
  }

  @Test
  void aCallTheWorkersRefuseIsAnsweredOverloadedWithNothingDone() {
    CallRunner full =
        new CallRunner(
            new ServerMetrics(new MetricRegistry()),
            task -> {
              throw new RejectedExecutionException("full");
            },
            5000,
            LIMIT,
            now::get);
    boolean[] ran = {false};

    full.pooled("scanJobs", answers, () -> ran[0] = true);

    assertThat(ran[0]).isFalse();
    assertThat(answers.errors)
        .singleElement()
        .satisfies(
            e -> {
              PinLaterException error = (PinLaterException) e;
              assertThat(error.getErrorCode()).isEqualTo(ErrorCode.UNKNOWN);
              assertThat(error.getMessage())
                  .isEqualTo(
                      "scanJobs refused: the queue server is overloaded (5000 calls "
                          + "already wait for a worker thread); nothing was done, try again later");
            });
    assertThat(full.inFlight()).isZero();
  }

  /** The answers sent to the client. */
  private static final class Answers implements AsyncMethodCallback<Object> {
    final List<Object> values = new ArrayList<>();
    final List<Exception> errors = new ArrayList<>();

    @Override
    public void onComplete(Object value) {
      values.add(value);
    }

    @Override
    public void onError(Exception e) {
      errors.add(e);
    }
  }
}
