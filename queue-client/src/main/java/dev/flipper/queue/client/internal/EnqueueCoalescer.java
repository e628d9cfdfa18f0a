package dev.flipper.queue.client.internal;

import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClientException;
import dev.flipper.queue.client.QueueUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends the single-job enqueues that threads make at the same time into one queue as one call, as a
 * Redis client pipelines its commands: per call, the server, the store and both kernels spend most
 * of their time on the call itself, not on the job. No timer and no added wait: while fewer than
 * {@code callsInFlight} calls to the queue are under way a caller sends its job at once; otherwise
 * it waits for its job to ride on the next call, which whichever waiting thread gets the turn sends
 * with every job then waiting (up to a limit).
 *
 * <p>Each caller gets its own answer: its job's descriptor, or the failure of the call that carried
 * it. A call the server refused (an error code, not a broken connection) is retried job by job,
 * each by its own caller, so one bad job never fails its neighbours. Thread-safe.
 */
public final class EnqueueCoalescer {
  /** Sends one enqueue call: the jobs' descriptors in order, or a {@link QueueClientException}. */
  public interface Sender {
    List<JobDescriptor> send(String queue, List<NewJob> jobs);
  }

  /** The outcome that tells a caller to send its job again, on its own. */
  private static final Object SEND_ALONE = new Object();

  /**
   * A waiter re-checks its turn this often even without a wake-up: a safety net, not the mechanism.
   */
  private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** Bytes of a job beyond its body on the wire: its fields, about 40, rounded up. */
  private static final int JOB_OVERHEAD_BYTES = 64;

  private final Sender sender;
  private final int callsInFlight;
  private final int maxJobsPerCall;
  private final long maxBytesPerCall;
  private final Map<String, Lane> lanes = new ConcurrentHashMap<>();

  public EnqueueCoalescer(
      Sender sender, int callsInFlight, int maxJobsPerCall, long maxBytesPerCall) {
    this.sender = sender;
    this.callsInFlight = callsInFlight;
    this.maxJobsPerCall = maxJobsPerCall;
    this.maxBytesPerCall = maxBytesPerCall;
  }

  /**
   * Enqueues one job, alone or with the jobs other threads enqueue into the same queue at the same
   * time. Waits at most about {@code timeout} beyond the call that carries the job.
   */
  public JobDescriptor enqueue(String queue, NewJob job, Duration timeout) {
    if (bytes(job) > maxBytesPerCall) {
      return sender.send(queue, List.of(job)).get(0);
    }
    Lane lane = lanes.computeIfAbsent(queue, Lane::new);
    Waiter waiter = new Waiter(lane, job);
    lane.waiting.add(waiter);
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    while (waiter.outcome == null) {
      if (lane.turns.tryAcquire()) {
        try {
          lane.sendWaiting();
        } finally {
          lane.turns.release();
        }
        lane.wakeNext();
      } else if (System.nanoTime() - deadline > 0 && lane.waiting.remove(waiter)) {
        throw new QueueUnavailableException(
            "enqueue into "
                + queue
                + " waited "
                + timeout
                + " for a turn to send"
                + " ("
                + callsInFlight
                + " call(s) in flight); it was not sent",
            false,
            null);
      } else {
        waiter.awaitOutcomeOrTurn();
        if (Thread.interrupted()) {
          if (lane.waiting.remove(waiter)) {
            Thread.currentThread().interrupt();
            throw new QueueUnavailableException(
                "enqueue into "
                    + queue
                    + " was interrupted while it waited for a "
                    + "turn to send; it was not sent",
                false,
                null);
          }
          interrupted = true; // its call is under way: wait for the answer, then keep the interrupt
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return waiter.result();
  }

  /** Jobs of the queue waiting for a call; for tests. */
  int waiting(String queue) {
    Lane lane = lanes.get(queue);
    return lane == null ? 0 : lane.waiting.size();
  }

  private static long bytes(NewJob job) {
    return job.body().length + (long) JOB_OVERHEAD_BYTES;
  }

  /** The waiting jobs of one queue and the turns to send them. */
  private final class Lane {
    final String queue;
    final Queue<Waiter> waiting = new ConcurrentLinkedQueue<>();
    final Semaphore turns = new Semaphore(callsInFlight);

    Lane(String queue) {
      this.queue = queue;
    }

    /**
     * Sends the jobs waiting now (up to a call's limits) as one call and hands each waiter its
     * outcome.
     */
    void sendWaiting() {
      List<Waiter> batch = new ArrayList<>();
      long bytes = 0; // may end up one job over the limit: a job alone never is (see enqueue)
      Waiter next;
      while (batch.size() < maxJobsPerCall
          && bytes < maxBytesPerCall
          && (next = waiting.poll()) != null) {
        batch.add(next);
        bytes += bytes(next.job);
      }
      if (batch.isEmpty()) {
        return;
      }
      List<NewJob> jobs = new ArrayList<>(batch.size());
      batch.forEach(w -> jobs.add(w.job));
      try {
        List<JobDescriptor> descriptors = sender.send(queue, jobs);
        for (int i = 0; i < batch.size(); i++) {
          batch.get(i).finish(descriptors.get(i));
        }
      } catch (QueueUnavailableException e) {
        batch.forEach(w -> w.finish(e));
      } catch (QueueClientException e) {
        // Refused as a whole: maybe for one job's sake. Each caller sends its own job again, alone.
        batch.forEach(w -> w.finish(batch.size() == 1 ? e : SEND_ALONE));
      } catch (RuntimeException e) {
        batch.forEach(w -> w.finish(e));
      }
    }

    /**
     * After a turn ends: the first waiter takes the next one (an arrival that found no turn relies
     * on this).
     */
    void wakeNext() {
      Waiter first = waiting.peek();
      if (first != null) {
        first.wake();
      }
    }
  }

  /** One caller's job and its outcome. */
  private final class Waiter {
    final Lane lane;
    final NewJob job;
    final Thread thread = Thread.currentThread();
    volatile Object outcome; // a JobDescriptor, a RuntimeException or SEND_ALONE
    volatile boolean woken;

    Waiter(Lane lane, NewJob job) {
      this.lane = lane;
      this.job = job;
    }

    void finish(Object result) {
      outcome = result;
      LockSupport.unpark(thread);
    }

    void wake() {
      woken = true;
      LockSupport.unpark(thread);
    }

    void awaitOutcomeOrTurn() {
      if (outcome == null && !woken) {
        LockSupport.parkNanos(this, RECHECK_NANOS);
      }
      woken = false;
    }

    /**
     * The descriptor, or the call's failure thrown on the caller's own thread (its stack, the cause
     * kept).
     */
    JobDescriptor result() {
      Object result = outcome;
      if (result instanceof JobDescriptor descriptor) {
        return descriptor;
      }
      if (result == SEND_ALONE) {
        return sender.send(lane.queue, List.of(job)).get(0);
      }
      throw rethrowable((RuntimeException) result);
    }
  }

  private static RuntimeException rethrowable(RuntimeException e) {
    if (e instanceof QueueUnavailableException u) {
      return new QueueUnavailableException(u.getMessage(), u.mayHaveBeenApplied(), u);
    }
    if (e instanceof QueueClientException c) {
      return new QueueClientException(c.errorCode(), c.getMessage(), c);
    }
    return e;
  }
}
