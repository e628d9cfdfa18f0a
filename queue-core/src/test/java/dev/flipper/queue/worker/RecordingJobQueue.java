package dev.flipper.queue.worker;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link JobQueue} in front of another that records what the worker sends and can be switched
 * "down": then the worker's calls (dequeue, ack, checkpoint) fail as an unreachable server's would,
 * while the test still reads the real queue through {@link #delegate()}. Thread-safe.
 */
final class RecordingJobQueue implements JobQueue {
  private final JobQueue delegate;
  private volatile boolean down;
  private volatile int passBeforeHold = Integer.MAX_VALUE;
  private final CountDownLatch holdReleased = new CountDownLatch(1);
  private final AtomicInteger dequeuesEntered = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicLong heldSinceNanos = new AtomicLong();
  final List<DequeueParams> dequeues = new CopyOnWriteArrayList<>();
  final List<AckParams> acks = new CopyOnWriteArrayList<>();
  final List<List<CheckpointParams>> checkpoints = new CopyOnWriteArrayList<>();

  RecordingJobQueue(JobQueue delegate) {
    this.delegate = delegate;
  }

  JobQueue delegate() {
    return delegate;
  }

  void down() {
    down = true;
  }

  void up() {
    down = false;
  }

  /**
   * From the {@code passed + 1}st dequeue call on, every call waits (as a long poll or a slow
   * server would) until {@link #releaseHeldDequeues()}.
   */
  void holdDequeuesAfter(int passed) {
    passBeforeHold = passed;
  }

  void releaseHeldDequeues() {
    holdReleased.countDown();
  }

  /** Dequeue calls under way now, and the most at once so far. */
  int dequeuesInFlight() {
    return inFlight.get();
  }

  int mostDequeuesInFlight() {
    return maxInFlight.get();
  }

  /** How long the first held dequeue has been held; 0 if none is. */
  Duration heldFor() {
    long since = heldSinceNanos.get();
    return since == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - since);
  }

  private void failIfDown(String call) {
    if (down) {
      throw new QueueException(ErrorCode.UNKNOWN, call + " failed: the queue is down (test)");
    }
  }

  @Override
  public List<DequeuedJob> dequeue(DequeueParams params) {
    failIfDown("dequeue");
    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    try {
      dequeues.add(params);
      if (dequeuesEntered.incrementAndGet() > passBeforeHold) {
        // As the queue server's long poll: piggy-backed acks are applied at once, then the call
        // waits.
        if (params.ack() != null) {
          delegate.ack(params.ack());
          params = params.withAck(null);
        }
        heldSinceNanos.compareAndSet(0, System.nanoTime());
        holdReleased.await();
      }
      return delegate.dequeue(params);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueException(ErrorCode.UNKNOWN, "interrupted while held (test)");
    } finally {
      inFlight.decrementAndGet();
    }
  }

  @Override
  public void ack(AckParams params) {
    failIfDown("ack");
    acks.add(params);
    delegate.ack(params);
  }

  @Override
  public void checkpoint(String queue, String source, List<CheckpointParams> list) {
    failIfDown("checkpoint");
    checkpoints.add(List.copyOf(list));
    delegate.checkpoint(queue, source, list);
  }

  @Override
  public void createQueue(String queue) {
    delegate.createQueue(queue);
  }

  @Override
  public void deleteQueue(String queue, String password) {
    delegate.deleteQueue(queue, password);
  }

  @Override
  public Set<String> queueNames() {
    return delegate.queueNames();
  }

  @Override
  public List<JobDescriptor> enqueue(String queue, List<NewJob> jobs) {
    return delegate.enqueue(queue, jobs);
  }

  @Override
  public List<dev.flipper.queue.EnqueueOutcome> enqueueWithOutcomes(
      String queue, List<NewJob> jobs) {
    return delegate.enqueueWithOutcomes(queue, jobs);
  }

  @Override
  public Map<JobDescriptor, JobInfo> lookup(List<JobDescriptor> jobs, boolean includeBody) {
    return delegate.lookup(jobs, includeBody);
  }

  @Override
  public int count(CountParams params) {
    return delegate.count(params);
  }

  @Override
  public ScanPage scan(ScanParams params) {
    return delegate.scan(params);
  }

  @Override
  public int retryFailed(RetryFailedParams params) {
    return delegate.retryFailed(params);
  }

  @Override
  public int deleteJobs(DeleteJobsParams params) {
    return delegate.deleteJobs(params);
  }

  @Override
  public boolean retryJob(JobDescriptor job, int attemptsToAllow) {
    return delegate.retryJob(job, attemptsToAllow);
  }

  @Override
  public String toString() {
    return "RecordingJobQueue(" + delegate + ")";
  }
}
