package dev.flipper.queue.client.worker;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the jobs of one queue with a {@link JobHandler}: up to {@code concurrency} at a time, claimed in
 * batches, acked in batches. Success acks ride on the next dequeue call; failure acks (with the retry delay
 * of the handler's {@link RetryPolicy}) are sent by a separate call, so a refused dequeue can never leave
 * their fate unknown. An ack that cannot be delivered is kept and retried until it is delivered or the job's
 * claim has surely expired (then the server retries the job itself). Jobs running longer than the heartbeat
 * interval are checkpointed so their claim does not time out.
 *
 * <pre>{@code
 * QueueWorker worker = QueueWorker.builder(client, "mail", job -> send(job.bodyAsString()))
 *     .concurrency(20).build().start();
 * ...
 * worker.close(); // stops dequeuing, finishes and acks the running jobs
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class QueueWorker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(QueueWorker.class);
  private static final int MAX_ACKS_PER_CALL = 1000;

  private final QueueClient client;
  private final String queue;
  private final JobHandler handler;
  private final RetryPolicy retryPolicy;
  private final Builder config;
  private final Semaphore slots;
  private final PendingAcks acks;
  private final Set<RunningJob> running = ConcurrentHashMap.newKeySet();
  private final CountDownLatch stopping = new CountDownLatch(1);
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ExecutorService jobThreads;
  private final ScheduledExecutorService timer;
  private final Thread dispatcher;

  private final LongAdder dequeueCalls = new LongAdder();
  private final LongAdder dequeueErrors = new LongAdder();
  private final LongAdder jobsDequeued = new LongAdder();
  private final LongAdder jobsSucceeded = new LongAdder();
  private final LongAdder jobsFailed = new LongAdder();
  private final LongAdder acksDelivered = new LongAdder();
  private final LongAdder ackErrors = new LongAdder();
  private final LongAdder heartbeats = new LongAdder();
  private final LongAdder heartbeatErrors = new LongAdder();

  private QueueWorker(Builder builder) {
    this.client = builder.client;
    this.queue = builder.queue;
    this.handler = builder.handler;
    this.retryPolicy = Objects.requireNonNull(handler.retryPolicy(), "the handler's retryPolicy()");
    this.config = builder;
    this.slots = new Semaphore(builder.concurrency);
    this.acks = new PendingAcks(queue, System::nanoTime);
    String prefix = "flipper-worker-" + queue;
    this.jobThreads = Executors.newFixedThreadPool(builder.concurrency, named(prefix + "-job"));
    this.timer = Executors.newSingleThreadScheduledExecutor(named(prefix + "-timer"));
    this.dispatcher = named(prefix + "-dequeue").newThread(this::dequeueLoop);
  }

  public static Builder builder(QueueClient client, String queue, JobHandler handler) {
    return new Builder(client, queue, handler);
  }

  public QueueWorker start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("worker of queue " + queue + " was already started");
    }
    long ackEvery = config.ackInterval.toMillis();
    timer.scheduleWithFixedDelay(this::sendAcksQuietly, ackEvery, ackEvery, TimeUnit.MILLISECONDS);
    long beatEvery = Math.max(1, config.heartbeatInterval.toMillis() / 2);
    timer.scheduleWithFixedDelay(this::heartbeat, beatEvery, beatEvery, TimeUnit.MILLISECONDS);
    dispatcher.start();
    log.info("worker of queue {} started: concurrency={}, batchSize={}, source={}", queue, config.concurrency,
        config.batchSize, client.source());
    return this;
  }

  public WorkerStats stats() {
    return new WorkerStats(dequeueCalls.sum(), dequeueErrors.sum(), jobsDequeued.sum(), jobsSucceeded.sum(),
        jobsFailed.sum(), running.size(), acksDelivered.sum(), ackErrors.sum(), acks.expired.sum(), acks.size(),
        heartbeats.sum(), heartbeatErrors.sum());
  }

  /**
   * Stops claiming jobs, waits for the running ones to finish and delivers their acks, for up to the
   * shutdown time-out in all; jobs still running then are interrupted and left to the server's claim
   * time-out.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    long deadline = System.nanoTime() + config.shutdownTimeout.toNanos();
    stopping.countDown();
    dispatcher.interrupt();
    joinQuietly(dispatcher, deadline);
    jobThreads.shutdown();
    try {
      if (!jobThreads.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        log.warn("worker of queue {}: {} job(s) still running after the shutdown time-out {}; interrupting them",
            queue, running.size(), config.shutdownTimeout);
        jobThreads.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      jobThreads.shutdownNow();
    }
    timer.shutdownNow();
    while (!acks.isEmpty() && System.nanoTime() < deadline) {
      if (!sendAcks()) {
        sleepQuietly(Math.min(200, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
      }
    }
    if (!acks.isEmpty()) {
      log.warn("worker of queue {} closed with {} undelivered ack(s); the server retries those jobs after their "
          + "claim time-out", queue, acks.size());
    }
    log.info("worker of queue {} closed: {}", queue, stats());
  }

  private void dequeueLoop() {
    while (stopping.getCount() > 0) {
      int claimable;
      try {
        slots.acquire();
        claimable = 1 + drainSlots(config.batchSize - 1);
      } catch (InterruptedException e) {
        break;
      }
      if (stopping.getCount() == 0) {
        slots.release(claimable);
        break;
      }
      List<PendingAcks.Ack> piggyBacked = acks.take(MAX_ACKS_PER_CALL, true);
      DequeueParams params = DequeueParams.of(queue, claimable, client.source());
      if (!piggyBacked.isEmpty()) {
        params = params.withAck(acks.toParams(piggyBacked));
      }
      List<DequeuedJob> jobs;
      long claimedAt = System.nanoTime();
      dequeueCalls.increment();
      try {
        jobs = client.dequeue(params);
      } catch (RuntimeException e) {
        dequeueErrors.increment();
        acks.requeue(piggyBacked); // re-sending a success ack is harmless
        slots.release(claimable);
        logDequeueFailure(e);
        pause(config.pollInterval);
        continue;
      }
      acksDelivered.add(piggyBacked.size());
      jobsDequeued.add(jobs.size());
      slots.release(claimable - jobs.size());
      for (DequeuedJob job : jobs) {
        RunningJob runningJob = new RunningJob(new WorkerJob(job), claimedAt);
        try {
          jobThreads.execute(() -> run(runningJob));
        } catch (java.util.concurrent.RejectedExecutionException e) {
          slots.release(); // closing: the claim times out and the server hands the job out again
        }
      }
      if (jobs.isEmpty()) {
        pause(config.pollInterval);
      }
    }
  }

  private int drainSlots(int max) {
    int taken = 0;
    while (taken < max && slots.tryAcquire()) {
      taken++;
    }
    return taken;
  }

  private void run(RunningJob job) {
    running.add(job);
    try {
      handler.handle(job.job);
      jobsSucceeded.increment();
      acks.add(new PendingAcks.Ack(AckParams.Item.of(job.job.descriptor()), true, job.ackDeadline()));
    } catch (Exception | Error e) {
      jobsFailed.increment();
      Duration delay = job.job.isLastAttempt() ? Duration.ZERO : retryDelay(job.job);
      log.info("job {} failed: {}{}", job.job, e, job.job.isLastAttempt() ? " (last attempt)" : ", retry in " + delay);
      AckParams.Item item = new AckParams.Item(job.job.descriptor(), failureStatus(job.job, e), delay);
      acks.add(new PendingAcks.Ack(item, false, job.ackDeadline()));
    } finally {
      running.remove(job);
      slots.release();
    }
  }

  private Duration retryDelay(WorkerJob job) {
    try {
      Duration delay = retryPolicy.delayAfter(job.attempt());
      return delay == null || delay.isNegative() ? Duration.ZERO : delay;
    } catch (RuntimeException e) {
      log.warn("retry policy of queue {} failed for {}; retrying without delay", queue, job, e);
      return Duration.ZERO;
    }
  }

  private String failureStatus(WorkerJob job, Throwable error) {
    try {
      String status = handler.failureStatus(job, error);
      return status == null ? "" : status;
    } catch (RuntimeException e) {
      return "";
    }
  }

  private void sendAcksQuietly() {
    try {
      sendAcks();
    } catch (RuntimeException e) {
      log.warn("sending acks of queue {} failed unexpectedly", queue, e);
    }
  }

  /** Sends every pending ack, in batches; false if a send failed (those acks are kept). */
  private boolean sendAcks() {
    List<PendingAcks.Ack> batch;
    while (!(batch = acks.take(MAX_ACKS_PER_CALL, false)).isEmpty()) {
      try {
        client.ack(acks.toParams(batch));
        acksDelivered.add(batch.size());
      } catch (RuntimeException e) {
        acks.requeue(batch);
        ackErrors.increment();
        log.warn("could not deliver {} ack(s) of queue {}, will retry: {}", batch.size(), queue, e.toString());
        return false;
      }
    }
    return true;
  }

  /** Checkpoints the jobs that have run for half a heartbeat interval since their claim was last refreshed. */
  private void heartbeat() {
    long now = System.nanoTime();
    List<RunningJob> due = new ArrayList<>();
    List<CheckpointParams> checkpoints = new ArrayList<>();
    for (RunningJob job : running) {
      if (now - job.refreshedAtNanos >= config.heartbeatInterval.toNanos() / 2) {
        due.add(job);
        checkpoints.add(CheckpointParams.heartbeat(job.job.descriptor()));
      }
    }
    if (due.isEmpty()) {
      return;
    }
    try {
      client.checkpoint(queue, checkpoints);
      heartbeats.add(due.size());
      for (RunningJob job : due) {
        job.refreshedAtNanos = now;
      }
    } catch (RuntimeException e) {
      heartbeatErrors.increment();
      log.warn("heartbeat of {} running job(s) of queue {} failed: {}", due.size(), queue, e.toString());
    }
  }

  private void logDequeueFailure(RuntimeException e) {
    if (e instanceof QueueClientException q && q.errorCode() == ErrorCode.DEQUEUE_RATE_LIMITED) {
      log.debug("dequeue of queue {} rate limited", queue);
    } else {
      log.warn("dequeue of queue {} failed, retrying in {}: {}", queue, config.pollInterval, e.toString());
    }
  }

  private void pause(Duration duration) {
    try {
      stopping.await(duration.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void joinQuietly(Thread thread, long deadlineNanos) {
    try {
      thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory named(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** A job being run and when its claim was last refreshed (claimed or heartbeat). */
  private final class RunningJob {
    final WorkerJob job;
    volatile long refreshedAtNanos;

    RunningJob(WorkerJob job, long claimedAtNanos) {
      this.job = job;
      this.refreshedAtNanos = claimedAtNanos;
    }

    /** After this the server has surely timed the claim out; the margin covers the call's own duration. */
    long ackDeadline() {
      return refreshedAtNanos + config.claimTimeout.toNanos() - config.claimTimeout.toNanos() / 10;
    }
  }

  /** Settings of a {@link QueueWorker}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final QueueClient client;
    private final String queue;
    private final JobHandler handler;
    private int concurrency = 10;
    private int batchSize = 10;
    private Duration pollInterval = Duration.ofSeconds(1);
    private Duration ackInterval = Duration.ofMillis(200);
    private Duration heartbeatInterval = Duration.ofSeconds(60);
    private Duration claimTimeout = Duration.ofSeconds(180);
    private Duration shutdownTimeout = Duration.ofSeconds(30);

    private Builder(QueueClient client, String queue, JobHandler handler) {
      this.client = Objects.requireNonNull(client, "client");
      this.queue = Objects.requireNonNull(queue, "queue");
      this.handler = Objects.requireNonNull(handler, "handler");
    }

    /** Jobs run at the same time. Default 10, as PinLater's example worker. */
    public Builder concurrency(int jobs) {
      this.concurrency = jobs;
      return this;
    }

    /** Most jobs claimed per dequeue call. Default 10. */
    public Builder batchSize(int jobs) {
      this.batchSize = jobs;
      return this;
    }

    /** Pause after a dequeue that found nothing or failed. Default 1 s. */
    public Builder pollInterval(Duration interval) {
      this.pollInterval = interval;
      return this;
    }

    /** How often acks not yet carried by a dequeue are sent on their own. Default 200 ms. */
    public Builder ackInterval(Duration interval) {
      this.ackInterval = interval;
      return this;
    }

    /**
     * A running job's claim is refreshed (checkpointed) about this often; keep it well below the server's
     * claim time-out. Default 60 s.
     */
    public Builder heartbeatInterval(Duration interval) {
      this.heartbeatInterval = interval;
      return this;
    }

    /** The server's claim time-out (PinLater: 180 s); acks are retried for at most that long. Default 180 s. */
    public Builder claimTimeout(Duration timeout) {
      this.claimTimeout = timeout;
      return this;
    }

    /** How long {@link QueueWorker#close()} waits for running jobs and their acks. Default 30 s. */
    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeout = timeout;
      return this;
    }

    public QueueWorker build() {
      require(!queue.isBlank(), "queue must not be blank");
      require(concurrency >= 1 && concurrency <= 10_000, "concurrency must be 1..10000, was " + concurrency);
      require(batchSize >= 1 && batchSize <= 10_000, "batchSize must be 1..10000, was " + batchSize);
      positive(pollInterval, "pollInterval");
      positive(ackInterval, "ackInterval");
      positive(heartbeatInterval, "heartbeatInterval");
      positive(claimTimeout, "claimTimeout");
      require(heartbeatInterval.compareTo(claimTimeout) < 0,
          "heartbeatInterval (" + heartbeatInterval + ") must be shorter than claimTimeout (" + claimTimeout + ")");
      require(shutdownTimeout != null && !shutdownTimeout.isNegative(), "shutdownTimeout must be >= 0");
      return new QueueWorker(this);
    }

    private static void positive(Duration value, String name) {
      require(value != null && !value.isNegative() && !value.isZero(), name + " must be > 0, was " + value);
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException("queue worker: " + message);
      }
    }
  }
}
