package dev.flipper.queue.worker;

import dev.flipper.lifecycle.NamedThreadFactory;
import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.QueueService;
import dev.flipper.text.DurationText;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the jobs of one queue with a {@link JobHandler}: up to {@code concurrency} at a time,
 * claimed in batches, acked in batches. Works on any {@link JobQueue}: the in-process {@link
 * QueueService} of an application that embeds the queue, or {@code ThriftJobQueue} (queue-client)
 * for a remote server.
 *
 * <p>The pipe is kept full: up to {@link Builder#dequeuesInFlight(int) dequeuesInFlight} dequeue
 * calls run at once, and once the worker knows how long its jobs take it claims up to {@link
 * Builder#prefetch(int) prefetch} jobs beyond its free slots, so the next batch is there when a
 * slot frees. It never claims more than it can start before their claim times out: the jobs waiting
 * for a slot, spread over the slots, must start within half the claim time-out at the jobs' average
 * run time, and they are heartbeat like running jobs meanwhile (a job whose claim surely expired
 * while waiting is not started: the queue retries it).
 *
 * <p>Success acks ride on the next dequeue call when one is due; when none is (the dispatchers
 * pause after an empty answer, or wait in a long-poll dequeue), they are flushed on their own at
 * once. Failure acks (with the retry delay of the handler's {@link RetryPolicy}) are always sent by
 * a separate call, so a refused dequeue can never leave their fate unknown. An ack that cannot be
 * delivered is kept and retried until it is delivered or the job's claim has surely expired (then
 * the queue retries the job itself). Jobs running longer than the heartbeat interval are
 * checkpointed so their claim does not time out.
 *
 * <pre>{@code
 * QueueWorker worker = QueueWorker.builder(jobQueue, "mail", job -> send(job.bodyAsString()))
 *     .concurrency(20).build().start();
 * ...
 * worker.close(); // stops dequeuing, finishes and acks the running jobs
 * }</pre>
 *
 * <p>Time: the {@link Builder#clock(Clock) clock} decides when a claim has expired and when a
 * heartbeat is due, so a test can move it; the worker's own waits (poll and ack intervals, the
 * shutdown time-out) are real time. Thread-safe.
 */
public final class QueueWorker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(QueueWorker.class);
  private static final int MAX_ACKS_PER_CALL = 1000;
  private static final long DEFAULT_DEQUEUE_WAIT_SECONDS = 10;

  /** The default {@link Builder#dequeueWait}. */
  public static final Duration DEFAULT_DEQUEUE_WAIT =
      Duration.ofSeconds(DEFAULT_DEQUEUE_WAIT_SECONDS);

  private final JobQueue jobQueue;
  private final String queue;
  private final String source;
  private final JobHandler handler;
  private final RetryPolicy retryPolicy;
  private final int concurrency;
  private final int batchSize;
  private final Duration pollInterval;

  /** Asked for by each dequeue call; null (not asked) when the builder's wait is 0. */
  private final Duration dequeueWait;

  private final Duration ackInterval;
  private final Duration heartbeatInterval;
  private final Duration claimTimeout;
  private final Duration shutdownTimeout;
  private final Clock clock;
  private final int prefetch;
  private final int dequeuesInFlight;

  private final ClaimBudget budget;
  private final PendingAcks acks;
  private final Set<RunningJob> running = ConcurrentHashMap.newKeySet();

  /** Claimed jobs waiting for a slot: heartbeat like running ones. */
  private final Set<RunningJob> waiting = ConcurrentHashMap.newKeySet();

  private final AtomicBoolean ackFlushScheduled = new AtomicBoolean();
  private final CountDownLatch stopping = new CountDownLatch(1);
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ExecutorService jobThreads;
  private final ScheduledExecutorService timer;
  private final List<Dispatcher> dispatchers = new ArrayList<>();

  private final LongAdder dequeueCalls = new LongAdder();
  private final LongAdder dequeueErrors = new LongAdder();
  private final LongAdder jobsDequeued = new LongAdder();
  private final LongAdder jobsSucceeded = new LongAdder();
  private final LongAdder jobsFailed = new LongAdder();
  private final LongAdder acksDelivered = new LongAdder();
  private final LongAdder ackErrors = new LongAdder();
  private final LongAdder heartbeats = new LongAdder();
  private final LongAdder heartbeatErrors = new LongAdder();

  /**
   * Takes every setting from the (validated) builder; the worker never looks at the builder again.
   */
  private QueueWorker(Builder builder, String source, RetryPolicy retryPolicy) {
    this.jobQueue = builder.jobQueue;
    this.queue = builder.queue;
    this.source = source;
    this.handler = builder.handler;
    this.retryPolicy = retryPolicy;
    this.concurrency = builder.concurrency;
    this.batchSize = builder.batchSize;
    this.pollInterval = builder.pollInterval;
    this.dequeueWait = builder.dequeueWait.isZero() ? null : builder.dequeueWait;
    this.ackInterval = builder.ackInterval;
    this.heartbeatInterval = builder.heartbeatInterval;
    this.claimTimeout = builder.claimTimeout;
    this.shutdownTimeout = builder.shutdownTimeout;
    this.clock = builder.clock;
    this.prefetch = builder.prefetch != null ? builder.prefetch : builder.batchSize;
    this.dequeuesInFlight = builder.dequeuesInFlight;
    this.budget = new ClaimBudget(concurrency, prefetch, batchSize, claimTimeout.toMillis() / 2);
    this.acks = new PendingAcks(queue, clock::millis);
    String prefix = "flipper-worker-" + queue;
    this.jobThreads =
        Executors.newFixedThreadPool(concurrency, new NamedThreadFactory(prefix + "-job"));
    this.timer =
        Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory(prefix + "-timer"));
    NamedThreadFactory dispatcherThreads = new NamedThreadFactory(prefix + "-dequeue");
    for (int i = 0; i < dequeuesInFlight; i++) {
      dispatchers.add(new Dispatcher(i, dispatcherThreads));
    }
  }

  /**
   * Settings of a worker that runs the jobs of {@code queue} with {@code handler}.
   *
   * @param jobQueue where the jobs are: a {@link QueueService} in this process, or {@code
   *     ThriftJobQueue} (queue-client) for a queue server
   * @param queue the queue's name
   * @param handler runs one job; called from several threads at once
   */
  public static Builder builder(JobQueue jobQueue, String queue, JobHandler handler) {
    return new Builder(jobQueue, queue, handler);
  }

  /** Starts claiming and running jobs; once. Returns this worker. */
  public QueueWorker start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("worker of queue " + queue + " was already started");
    }
    long tick = ackInterval.toMillis();
    timer.scheduleWithFixedDelay(this::maintain, tick, tick, TimeUnit.MILLISECONDS);
    dispatchers.forEach(d -> d.thread.start());
    log.info(
        "worker of queue {} started: source={}, concurrency={}, batchSize={}, prefetch={}, dequeuesInFlight={}, "
            + "pollInterval={}, dequeueWait={}, heartbeatInterval={}, claimTimeout={}, on {}",
        queue,
        source,
        concurrency,
        batchSize,
        prefetch,
        dequeuesInFlight,
        pollInterval,
        dequeueWait,
        heartbeatInterval,
        claimTimeout,
        jobQueue);
    return this;
  }

  /** The queue whose jobs this worker runs. */
  public String queue() {
    return queue;
  }

  /** Who claims the jobs (the dequeue's source), for example {@code "mailer:host7"}. */
  public String source() {
    return source;
  }

  public WorkerStats stats() {
    return new WorkerStats(
        dequeueCalls.sum(),
        dequeueErrors.sum(),
        jobsDequeued.sum(),
        jobsSucceeded.sum(),
        jobsFailed.sum(),
        running.size(),
        acksDelivered.sum(),
        ackErrors.sum(),
        acks.expired.sum(),
        acks.size(),
        heartbeats.sum(),
        heartbeatErrors.sum());
  }

  /**
   * Stops claiming jobs, waits for the running ones to finish and delivers their acks, for up to
   * the shutdown time-out (real time) in all; jobs still running then are interrupted and left to
   * the queue's claim time-out. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    long deadline = System.nanoTime() + shutdownTimeout.toNanos();
    stopping.countDown();
    // Wake the dispatchers waiting for room to claim; they see the stop. No interrupt: an interrupt
    // during
    // a dequeue's file I/O closes an embedded H2 database (its FileChannel) for everyone.
    budget.wakeAll();
    dispatchers.forEach(d -> awaitDispatcher(d, deadline));
    jobThreads.shutdown(); // jobs claimed but not started yet still run: their claims are ours
    try {
      if (!jobThreads.awaitTermination(
          Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        log.warn(
            "worker of queue {}: {} job(s) still running after the shutdown time-out {}; interrupting them",
            queue,
            running.size(),
            shutdownTimeout);
        jobThreads.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      jobThreads.shutdownNow();
    }
    timer.shutdown(); // not shutdownNow: the timer may be in an ack or heartbeat call (see above)
    try {
      timer.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    while (!acks.isEmpty() && System.nanoTime() < deadline) {
      if (!sendAcks()) {
        sleepQuietly(
            Math.min(
                200, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
      }
    }
    if (!acks.isEmpty()) {
      log.warn(
          "worker of queue {} closed with {} undelivered ack(s); the queue retries those jobs after their "
              + "claim time-out",
          queue,
          acks.size());
    }
    log.info("worker of queue {} closed: {}", queue, stats());
  }

  @Override
  public String toString() {
    return "QueueWorker(" + queue + ", source " + source + ")";
  }

  /**
   * True once {@link #close()} has told the dispatcher to stop claiming; for tests that must not
   * race it.
   */
  boolean isStopping() {
    return stopping.getCount() == 0;
  }

  /** Jobs claimed and not finished, plus jobs asked for by dequeues in flight; for tests. */
  int claimedOrAskedFor() {
    return budget.outstanding();
  }

  /**
   * One of the dequeue loops. Each claims what the budget allows, at most a batch, while the
   * others' calls are in flight. The extra loops rest while the queue looks empty, so an idle
   * worker polls with one.
   */
  private final class Dispatcher {
    final int index;
    final Thread thread;

    /** What this loop does now, for deciding whether a dequeue is due soon (see dequeueDueSoon). */
    volatile long callStartedNanos;

    volatile boolean inCall;
    volatile long pauseEndsNanos;

    Dispatcher(int index, NamedThreadFactory threads) {
      this.index = index;
      this.thread = threads.newThread(this::loop);
    }

    private void loop() {
      while (!isStopping()) {
        if (index > 0 && budget.queueLooksEmpty()) {
          pause(this, pollInterval);
          continue;
        }
        int claimable;
        try {
          claimable = budget.awaitClaimable(stopping);
        } catch (InterruptedException e) {
          break;
        }
        if (claimable == 0) {
          break; // stopping
        }
        dequeue(claimable);
      }
    }

    private void dequeue(int claimable) {
      List<PendingAcks.Ack> piggyBacked = acks.take(MAX_ACKS_PER_CALL, true);
      DequeueParams params = DequeueParams.of(queue, claimable, source).withMaxWait(dequeueWait);
      if (!piggyBacked.isEmpty()) {
        params = params.withAck(acks.toParams(piggyBacked));
      }
      List<DequeuedJob> jobs;
      // Read before the call: the claim is made during it, so deadlines counted from here err on
      // the safe side.
      long claimedAtMillis = clock.millis();
      dequeueCalls.increment();
      long began = System.nanoTime();
      callStartedNanos = began;
      inCall = true;
      try {
        jobs = jobQueue.dequeue(params);
      } catch (RuntimeException e) {
        inCall = false;
        dequeueErrors.increment();
        acks.requeue(piggyBacked); // re-sending a success ack is harmless
        budget.callEnded(claimable, 0, 0);
        logDequeueFailure(e);
        pause(this, pollInterval);
        return;
      }
      inCall = false;
      long tookNanos = System.nanoTime() - began;
      acksDelivered.add(piggyBacked.size());
      jobsDequeued.add(jobs.size());
      budget.callEnded(claimable, jobs.size(), tookNanos);
      // A call that waited for jobs may return after close began: those jobs are not started.
      boolean closing = isStopping();
      List<DequeuedJob> notStarted = new ArrayList<>();
      for (DequeuedJob job : jobs) {
        RunningJob claimed = new RunningJob(new WorkerJob(job), claimedAtMillis);
        if (!closing) {
          waiting.add(claimed);
          try {
            jobThreads.execute(() -> run(claimed));
            continue;
          } catch (RejectedExecutionException e) {
            waiting.remove(claimed);
          }
        }
        budget.jobDone(-1);
        notStarted.add(job);
      }
      giveBack(notStarted);
      if (jobs.isEmpty()) {
        budget.markEmpty(true);
        // Long-poll aware: a call that already waited for jobs (a long poll) needs no pause on top.
        long rest = pollInterval.toNanos() - tookNanos;
        if (rest > 0) {
          pause(this, Duration.ofNanos(rest));
        }
      } else {
        budget.markEmpty(false);
      }
    }
  }

  /**
   * True if some dispatcher will probably send a dequeue (which carries success acks) within the
   * ack interval: it waits for room to claim (a finishing job makes some), its pause ends within
   * the interval, or it is in a call that has not yet taken much longer than a usual round trip (a
   * longer one is a long poll).
   */
  private boolean dequeueDueSoon() {
    if (isStopping()) {
      return false;
    }
    long now = System.nanoTime();
    long soon = now + ackInterval.toNanos();
    for (Dispatcher d : dispatchers) {
      if (d.index > 0 && budget.queueLooksEmpty()) {
        continue;
      }
      if (d.inCall) {
        if (now - d.callStartedNanos <= budget.longPollAfterNanos()) {
          return true;
        }
      } else if (d.pauseEndsNanos == 0 || d.pauseEndsNanos - soon <= 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Sends the pending acks soon, on the timer thread: many acks that arrive together go in one
   * call.
   */
  private void flushAcksSoon() {
    if (ackFlushScheduled.compareAndSet(false, true)) {
      try {
        timer.execute(
            () -> {
              ackFlushScheduled.set(false);
              sendAcks();
            });
      } catch (RejectedExecutionException e) {
        ackFlushScheduled.set(false); // closing: close() delivers what is left
      }
    }
  }

  private void run(RunningJob job) {
    waiting.remove(job);
    long startedMillis = clock.millis();
    if (startedMillis > job.ackDeadlineMillis()) {
      // Waited so long that the claim has surely expired (heartbeats failed): the queue retries the
      // job.
      log.warn(
          "not starting job {} of queue {}: its claim expired while it waited for a slot",
          job.job,
          queue);
      budget.jobDone(-1);
      return;
    }
    running.add(job);
    try {
      handler.handle(job.job);
      jobsSucceeded.increment();
      acks.add(
          new PendingAcks.Ack(
              AckParams.Item.of(job.job.descriptor()), true, job.ackDeadlineMillis()));
      if (!dequeueDueSoon()) {
        flushAcksSoon();
      }
    } catch (Exception | Error e) {
      jobsFailed.increment();
      Duration delay = job.job.isLastAttempt() ? Duration.ZERO : retryDelay(job.job);
      log.info(
          "job {} failed: {}{}",
          job.job,
          e,
          job.job.isLastAttempt() ? " (last attempt)" : ", retry in " + DurationText.format(delay));
      AckParams.Item item =
          new AckParams.Item(job.job.descriptor(), failureStatus(job.job, e), delay);
      acks.add(new PendingAcks.Ack(item, false, job.ackDeadlineMillis()));
      flushAcksSoon(); // never on a dequeue
    } finally {
      running.remove(job);
      budget.jobDone(Math.max(0, clock.millis() - startedMillis));
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

  /**
   * The timer's task, every ack interval: deliver the acks no dequeue carried, then the due
   * heartbeats.
   */
  private void maintain() {
    try {
      sendAcks();
      heartbeat();
    } catch (RuntimeException e) {
      log.warn("acks or heartbeats of queue {} failed unexpectedly", queue, e);
    }
  }

  /** Sends every pending ack, in batches; false if a send failed (those acks are kept). */
  private boolean sendAcks() {
    List<PendingAcks.Ack> batch;
    while (!(batch = acks.take(MAX_ACKS_PER_CALL, false)).isEmpty()) {
      try {
        jobQueue.ack(acks.toParams(batch));
        acksDelivered.add(batch.size());
      } catch (RuntimeException e) {
        acks.requeue(batch);
        ackErrors.increment();
        log.warn(
            "could not deliver {} ack(s) of queue {}, will retry: {}",
            batch.size(),
            queue,
            e.toString());
        return false;
      }
    }
    return true;
  }

  /** Checkpoints the jobs whose claim was last refreshed a heartbeat interval ago or more. */
  private void heartbeat() {
    long now = clock.millis();
    List<RunningJob> due = new ArrayList<>();
    List<CheckpointParams> checkpoints = new ArrayList<>();
    for (Set<RunningJob> jobs : List.of(running, waiting)) {
      for (RunningJob job : jobs) {
        if (now - job.refreshedAtMillis >= heartbeatInterval.toMillis()) {
          due.add(job);
          checkpoints.add(CheckpointParams.heartbeat(job.job.descriptor()));
        }
      }
    }
    if (due.isEmpty()) {
      return;
    }
    try {
      jobQueue.checkpoint(queue, source, checkpoints);
      heartbeats.add(due.size());
      for (RunningJob job : due) {
        job.refreshedAtMillis = now;
      }
    } catch (RuntimeException e) {
      heartbeatErrors.increment();
      log.warn(
          "heartbeat of {} running job(s) of queue {} failed, will retry: {}",
          due.size(),
          queue,
          e.toString());
    }
  }

  private void logDequeueFailure(RuntimeException e) {
    if (e instanceof QueueException q && q.errorCode() == ErrorCode.DEQUEUE_RATE_LIMITED) {
      log.debug("dequeue of queue {} rate limited", queue);
    } else {
      log.warn("dequeue of queue {} failed, retrying in {}: {}", queue, pollInterval, e.toString());
    }
  }

  private void pause(Dispatcher dispatcher, Duration duration) {
    dispatcher.pauseEndsNanos = System.nanoTime() + duration.toNanos();
    if (!acks.isEmpty() && !dequeueDueSoon()) {
      flushAcksSoon(); // acks that waited for this dispatcher's dequeue
    }
    try {
      stopping.await(duration.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      dispatcher.pauseEndsNanos = 0;
    }
  }

  /**
   * Waits for a dispatcher to stop, but not for a dequeue that may be waiting for jobs: close is
   * not held up by an idle queue. Jobs such a call claims later are given back (see {@link
   * #giveBack}).
   */
  private void awaitDispatcher(Dispatcher d, long deadlineNanos) {
    while (d.thread.isAlive() && !(dequeueWait != null && d.inCall)) {
      long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
      if (leftMillis <= 0) {
        return;
      }
      joinQuietly(
          d.thread, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.min(10, leftMillis)));
    }
  }

  /**
   * Jobs claimed by a call that returned after close began go back to pending at once, their
   * attempt unused; if that fails, the queue retries them after their claim time-out.
   */
  private void giveBack(List<DequeuedJob> jobs) {
    if (jobs.isEmpty()) {
      return;
    }
    List<CheckpointParams> back = new ArrayList<>();
    for (DequeuedJob job : jobs) {
      back.add(new CheckpointParams(job.descriptor(), null, true, null, null, null));
    }
    try {
      jobQueue.checkpoint(queue, source, back);
    } catch (RuntimeException e) {
      log.warn(
          "worker of queue {}: could not give back {} job(s) claimed while closing ({}); the queue "
              + "retries them after their claim time-out",
          queue,
          jobs.size(),
          e.toString());
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

  /**
   * A job being run and when its claim was last refreshed (claimed or heartbeat), by the worker's
   * clock.
   */
  private final class RunningJob {
    final WorkerJob job;
    volatile long refreshedAtMillis;

    RunningJob(WorkerJob job, long claimedAtMillis) {
      this.job = job;
      this.refreshedAtMillis = claimedAtMillis;
    }

    /**
     * After this the queue has surely timed the claim out; the margin covers the call's own
     * duration.
     */
    long ackDeadlineMillis() {
      return refreshedAtMillis + claimTimeout.toMillis() - claimTimeout.toMillis() / 10;
    }
  }

  /** Settings of a {@link QueueWorker}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private final JobQueue jobQueue;
    private final String queue;
    private final JobHandler handler;
    private String source;
    private int concurrency = 10;
    private int batchSize = 10;
    private Duration pollInterval = Duration.ofSeconds(1);
    private Duration dequeueWait = DEFAULT_DEQUEUE_WAIT;
    private Duration ackInterval = Duration.ofMillis(200);
    private Duration heartbeatInterval = Duration.ofSeconds(60);
    private Duration claimTimeout = Duration.ofSeconds(180);
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private Clock clock = Clock.systemUTC();
    private Integer prefetch;
    private int dequeuesInFlight = 2;

    private Builder(JobQueue jobQueue, String queue, JobHandler handler) {
      this.jobQueue = Objects.requireNonNull(jobQueue, "jobQueue");
      this.queue = Objects.requireNonNull(queue, "queue");
      this.handler = Objects.requireNonNull(handler, "handler");
    }

    /**
     * Who claims the jobs, for example {@code "mailer:host7"}: stored in each job's claim
     * descriptor, and heartbeats count only from the source that claimed. Default {@code
     * flipper-worker:<host name>}.
     */
    public Builder source(String name) {
      this.source = name;
      return this;
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

    /**
     * Most jobs claimed beyond the free slots, to wait for one: the next batch is at hand when a
     * slot frees. Only once the worker has measured how long its jobs run, and only as many as
     * start within half the claim time-out at that pace. 0 claims only for free slots. Default: the
     * batch size.
     */
    public Builder prefetch(int jobs) {
      this.prefetch = jobs;
      return this;
    }

    /** Dequeue calls that may be under way at once (each at most a batch). Default 2. */
    public Builder dequeuesInFlight(int calls) {
      this.dequeuesInFlight = calls;
      return this;
    }

    /**
     * Pause after a dequeue that found nothing or failed (a long-poll dequeue's own wait counts).
     * Default 1 s.
     */
    public Builder pollInterval(Duration interval) {
      this.pollInterval = interval;
      return this;
    }

    /**
     * How long a dequeue that finds no job waits for one (a long poll; the queue answers as soon as
     * a job is enqueued), so an idle worker starts a new job at once. Must be below the client's
     * {@code dequeueTimeout} for a remote queue; a server holds a call at most half its {@code
     * idleTimeout}. 0 asks for no wait: the server's {@code queue.longPollTimeout} applies, then
     * the poll interval. 0..{@link DequeueParams#MAX_WAIT}; default {@value
     * #DEFAULT_DEQUEUE_WAIT_SECONDS} s.
     */
    public Builder dequeueWait(Duration wait) {
      this.dequeueWait = wait;
      return this;
    }

    /**
     * How often acks not yet carried by a dequeue are sent on their own, and how often running jobs
     * are checked for a due heartbeat. Default 200 ms.
     */
    public Builder ackInterval(Duration interval) {
      this.ackInterval = interval;
      return this;
    }

    /**
     * A running job's claim is refreshed (checkpointed) about this often; keep it well below the
     * queue's claim time-out. Default 60 s.
     */
    public Builder heartbeatInterval(Duration interval) {
      this.heartbeatInterval = interval;
      return this;
    }

    /**
     * The queue's claim time-out (PinLater and {@code queue.claimTimeout}: 180 s); an undelivered
     * ack is retried until 90% of it has passed since the claim was last refreshed. Default 180 s.
     */
    public Builder claimTimeout(Duration timeout) {
      this.claimTimeout = timeout;
      return this;
    }

    /**
     * How long {@link QueueWorker#close()} waits for running jobs and their acks (real time).
     * Default 30 s.
     */
    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeout = timeout;
      return this;
    }

    /**
     * The clock that dates claims and heartbeats; give the same clock as the {@link QueueService}
     * when both run in one process under test. Default: the system clock (UTC).
     */
    public Builder clock(Clock newClock) {
      this.clock = newClock;
      return this;
    }

    public QueueWorker build() {
      require(!queue.isBlank(), "queue must not be blank");
      String effectiveSource = source != null ? source : "flipper-worker:" + localHostName();
      require(
          !effectiveSource.isBlank() && effectiveSource.length() <= QueueService.MAX_SOURCE_LENGTH,
          "source must be 1.."
              + QueueService.MAX_SOURCE_LENGTH
              + " characters, was '"
              + effectiveSource
              + "'");
      require(
          concurrency >= 1 && concurrency <= 10_000,
          "concurrency must be 1..10000, was " + concurrency);
      require(
          batchSize >= 1 && batchSize <= 10_000, "batchSize must be 1..10000, was " + batchSize);
      require(
          prefetch == null || (prefetch >= 0 && prefetch <= 10_000),
          "prefetch must be 0..10000, was " + prefetch);
      require(
          dequeuesInFlight >= 1 && dequeuesInFlight <= 16,
          "dequeuesInFlight must be 1..16, was " + dequeuesInFlight);
      positive(pollInterval, "pollInterval");
      require(
          dequeueWait != null
              && !dequeueWait.isNegative()
              && dequeueWait.compareTo(DequeueParams.MAX_WAIT) <= 0,
          "dequeueWait must be 0.."
              + DurationText.format(DequeueParams.MAX_WAIT)
              + ", was "
              + (dequeueWait == null ? "null" : DurationText.format(dequeueWait)));
      positive(ackInterval, "ackInterval");
      positive(heartbeatInterval, "heartbeatInterval");
      positive(claimTimeout, "claimTimeout");
      require(
          heartbeatInterval.compareTo(claimTimeout) < 0,
          "heartbeatInterval ("
              + DurationText.format(heartbeatInterval)
              + ") must be shorter than claimTimeout ("
              + DurationText.format(claimTimeout)
              + ")");
      require(
          ackInterval.compareTo(heartbeatInterval) <= 0,
          "ackInterval ("
              + DurationText.format(ackInterval)
              + ") must not exceed "
              + "heartbeatInterval ("
              + DurationText.format(heartbeatInterval)
              + "): running jobs are checked for a due heartbeat every ack "
              + "interval");
      require(
          shutdownTimeout != null && !shutdownTimeout.isNegative(), "shutdownTimeout must be >= 0");
      require(clock != null, "clock must not be null");
      RetryPolicy retryPolicy = handler.retryPolicy();
      require(retryPolicy != null, "the handler's retryPolicy() returned null");
      return new QueueWorker(this, effectiveSource, retryPolicy);
    }

    private void positive(Duration value, String name) {
      require(
          value != null && !value.isNegative() && !value.isZero(),
          name + " must be > 0, was " + (value == null ? "null" : DurationText.format(value)));
    }

    private void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException("worker of queue '" + queue + "': " + message);
      }
    }

    private static String localHostName() {
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        return "unknown-host";
      }
    }
  }
}
