package dev.flipper.queue;

import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.CheckpointRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import dev.flipper.queue.spi.UniqueInsert;
import dev.flipper.text.DurationText;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-process implementation of {@link JobQueue}: PinLater's operations over any {@link
 * QueueStore}. All backend-independent logic lives here: validation, priority order across shards,
 * piggy-backed acks, scan paging. Thread-safe; one instance per process is enough, and many
 * processes may share one store. The operations' contract is documented on {@link JobQueue}.
 *
 * <p>Claim descriptors, stored on the jobs of one dequeue call and shown by lookup, have the form
 * {@code <serverId>:<serverStartMillis>:<counter>:<source>}; the counter increases with every
 * dequeue call of this instance.
 *
 * <pre>{@code
 * QueueService queue = QueueService.builder(store).priorityLevels(3).build();
 * queue.createQueue("mail");
 * List<JobDescriptor> ids = queue.enqueue("mail", List.of(NewJob.of("hello")));
 * }</pre>
 */
public final class QueueService implements JobQueue {
  /** Queue names: letters, digits and '_', at most this many characters. */
  public static final int MAX_QUEUE_NAME_LENGTH = 100;

  /** The most jobs one scan page may return. */
  public static final int MAX_SCAN_LIMIT = Validation.MAX_SCAN_LIMIT;

  /** Sources (who dequeues and checkpoints) are at most this many characters. */
  public static final int MAX_SOURCE_LENGTH = Validation.MAX_SOURCE_LENGTH;

  /**
   * Priorities 1..3 unless {@link Builder#priorityLevels} says otherwise (the config's
   * queue.priorityLevels).
   */
  public static final int DEFAULT_PRIORITY_LEVELS = 3;

  /**
   * Largest job body unless {@link Builder#maxBodyBytes} says otherwise: 1 MiB
   * (queue.maxBodyBytes).
   */
  public static final int DEFAULT_MAX_BODY_BYTES = 1 << 20;

  private static final Logger log = LoggerFactory.getLogger(QueueService.class);

  private final QueueStore store;
  private final int priorityLevels;
  private final int countLimit;
  private final String serverId;
  private final String adminPasswordHash;
  private final Clock clock;
  private final Validation validation;
  private final ShardPicker shards;
  private final long startMillis;
  private final AtomicLong dequeueCalls = new AtomicLong();
  private final PausedQueues pausedQueues;
  private final long bodyFilterStepsPerBody;
  private final Duration bodyFilterTimePerCall;

  private QueueService(Builder builder) {
    this.store = builder.store;
    this.priorityLevels = builder.priorityLevels;
    this.countLimit = builder.countLimit;
    this.serverId = builder.serverId;
    this.adminPasswordHash = builder.adminPasswordHash;
    this.clock = builder.clock;
    this.validation = new Validation(builder.priorityLevels, builder.maxBodyBytes);
    this.shards = new ShardPicker(builder.store, builder.random);
    this.startMillis = clock.millis();
    this.pausedQueues = new PausedQueues(shards::all, clock, builder.pauseRefresh);
    this.bodyFilterStepsPerBody = builder.bodyFilterStepsPerBody;
    this.bodyFilterTimePerCall = builder.bodyFilterTimePerCall;
  }

  /** A filter for one call, with this service's budgets. */
  private BodyFilter bodyFilter(String regex) {
    return BodyFilter.of(regex, bodyFilterStepsPerBody, bodyFilterTimePerCall, System::nanoTime);
  }

  /**
   * Checks who calls: non-blank, at most {@value #MAX_SOURCE_LENGTH} characters. Dequeue and
   * checkpoint check it themselves; a server calls this for every other call so that all of them
   * treat a source alike.
   */
  public static void requireSource(String source) {
    Validation.source(source);
  }

  public static Builder builder(QueueStore store) {
    return new Builder(store);
  }

  public int priorityLevels() {
    return priorityLevels;
  }

  public QueueStore store() {
    return store;
  }

  // ---------------------------------------------------------------------------------------------------
  // Queues

  @Override
  public void createQueue(String queue) {
    Validation.queueName(queue);
    for (ShardStore shard : shards.all()) {
      shard.createQueue(queue);
    }
  }

  @Override
  public void deleteQueue(String queue, String password) {
    Validation.queueName(queue);
    requireAdminPassword(password, "deleteQueue", queue);
    for (ShardStore shard : shards.all()) {
      shard.deleteQueue(queue);
    }
  }

  /**
   * Checks the admin password of an operation that deletes jobs (deleteQueue; over Thrift also
   * deleteJobs): PASSWORD_INVALID when it is wrong or no admin password hash is configured, so
   * deleting stays off until an operator sets one.
   */
  public void requireAdminPassword(String password, String operation, String queue) {
    if (adminPasswordHash.isEmpty()) {
      throw new QueueException(
          ErrorCode.PASSWORD_INVALID,
          operation
              + " is disabled until queue.adminPasswordHash is set (generate one with `flipper hash-password`)");
    }
    checkPassword(password, operation, queue);
  }

  /**
   * Checks the admin password of an operation that changes many jobs but can be undone (over
   * Thrift: retryFailedJobs, setQueuePaused) once an admin password hash is configured; without one
   * they stay open, as in PinLater, to whoever may reach the port (docs/security.md).
   */
  public void requireAdminPasswordIfSet(String password, String operation, String queue) {
    if (!adminPasswordHash.isEmpty()) {
      checkPassword(password, operation, queue);
    }
  }

  private void checkPassword(String password, String operation, String queue) {
    if (!PasswordHash.matches(password, adminPasswordHash)) {
      throw new QueueException(
          ErrorCode.PASSWORD_INVALID,
          "wrong admin password for " + operation + " of queue '" + queue + "'");
    }
  }

  @Override
  public Set<String> queueNames() {
    Set<String> names = new TreeSet<>();
    ShardFailures failures = new ShardFailures("queueNames");
    for (ShardStore shard : shards.healthyShuffled("queueNames")) {
      try {
        names.addAll(shard.queueNames());
        failures.answered();
      } catch (QueueException e) {
        failures.skip(shard, e);
      }
    }
    failures.throwIfNoneAnswered();
    return Collections.unmodifiableSet(names);
  }

  // ---------------------------------------------------------------------------------------------------
  // Jobs

  @Override
  public List<JobDescriptor> enqueue(String queue, List<NewJob> jobs) {
    List<NewJobRecord> records = records(queue, jobs);
    if (records.isEmpty()) {
      return List.of();
    }
    if (records.stream().noneMatch(NewJobRecord::keyed)) {
      return enqueueAnywhere(queue, records);
    }
    return enqueueKeyed(queue, records).stream().map(EnqueueOutcome::job).toList();
  }

  @Override
  public List<EnqueueOutcome> enqueueWithOutcomes(String queue, List<NewJob> jobs) {
    List<NewJobRecord> records = records(queue, jobs);
    if (records.isEmpty()) {
      return List.of();
    }
    if (records.stream().noneMatch(NewJobRecord::keyed)) {
      return enqueueAnywhere(queue, records).stream()
          .map(job -> new EnqueueOutcome(job, false))
          .toList();
    }
    return enqueueKeyed(queue, records);
  }

  /** Jobs without unique keys: all or none on a random shard, retried once on another. */
  private List<JobDescriptor> enqueueAnywhere(String queue, List<NewJobRecord> records) {
    ShardStore shard = shards.forEnqueue(null).orElseThrow(() -> noEnqueueShard(queue));
    List<Long> ids;
    try {
      ids = shard.enqueue(queue, records);
    } catch (QueueException e) {
      if (!e.errorCode().shardUnavailable()) {
        throw e;
      }
      Optional<ShardStore> other = shards.forEnqueue(shard.name());
      if (other.isEmpty()) {
        throw e;
      }
      log.warn(
          "enqueue to queue '{}': shard {} failed ({}); retrying on shard {}",
          queue,
          shard.name(),
          e.getMessage(),
          other.get().name());
      shard = other.get();
      ids = shard.enqueue(queue, records);
    }
    return descriptors(queue, shard.name(), records, ids);
  }

  /**
   * A request with unique keys: the jobs without a key go together to a random shard, each keyed
   * job to the shard its key hashes to (no retry elsewhere: another shard could not see the
   * holder), where the store checks the key and inserts atomically.
   */
  private List<EnqueueOutcome> enqueueKeyed(String queue, List<NewJobRecord> records) {
    EnqueueOutcome[] outcomes = new EnqueueOutcome[records.size()];
    List<Integer> plain = new ArrayList<>();
    Map<ShardStore, List<Integer>> keyedByShard = new LinkedHashMap<>();
    for (int i = 0; i < records.size(); i++) {
      NewJobRecord record = records.get(i);
      if (record.keyed()) {
        ShardStore shard =
            shards.forKey(record.uniqueKey()).orElseThrow(() -> noEnqueueShard(queue));
        keyedByShard.computeIfAbsent(shard, s -> new ArrayList<>()).add(i);
      } else {
        plain.add(i);
      }
    }
    if (!plain.isEmpty()) {
      List<JobDescriptor> created =
          enqueueAnywhere(queue, plain.stream().map(records::get).toList());
      for (int i = 0; i < plain.size(); i++) {
        outcomes[plain.get(i)] = new EnqueueOutcome(created.get(i), false);
      }
    }
    for (Map.Entry<ShardStore, List<Integer>> group : keyedByShard.entrySet()) {
      ShardStore shard = group.getKey();
      List<Integer> positions = group.getValue();
      List<UniqueInsert> inserted =
          shard.enqueueUnique(queue, positions.stream().map(records::get).toList());
      if (inserted.size() != positions.size()) {
        throw new IllegalStateException(
            "shard "
                + shard.name()
                + " returned "
                + inserted.size()
                + " results for "
                + positions.size()
                + " keyed jobs enqueued to queue '"
                + queue
                + "'; indicates a bug in the store");
      }
      for (int i = 0; i < positions.size(); i++) {
        JobRef ref = inserted.get(i).job();
        outcomes[positions.get(i)] =
            new EnqueueOutcome(
                new JobDescriptor(queue, shard.name(), ref.priority(), ref.localId()),
                inserted.get(i).duplicate());
      }
    }
    return List.of(outcomes);
  }

  /**
   * Enqueues on the named shard through {@code insert} instead of the shard's own connection: how a
   * store inserts jobs inside the caller's transaction (see queue-mysql's {@code
   * TransactionalEnqueue}). Validates and stamps the jobs exactly as {@link #enqueue} does; {@code
   * insert} returns the new local ids in order.
   */
  public List<JobDescriptor> enqueueOn(
      String shardName, String queue, List<NewJob> jobs, JobInsert insert) {
    List<NewJobRecord> records = records(queue, jobs);
    if (records.isEmpty()) {
      return List.of();
    }
    if (records.stream().anyMatch(NewJobRecord::keyed)) {
      throw QueueException.invalid(
          "enqueue on shard '"
              + shardName
              + "' in the caller's transaction does not take jobs with a unique key: the key"
              + " decides the shard; enqueue them with enqueue()");
    }
    if (!shardsByName().containsKey(shardName)) {
      throw QueueException.invalid(
          "shard '" + shardName + "' is not one of the store's shards " + shardsByName().keySet());
    }
    List<Long> ids = insert.insert(queue, records);
    return descriptors(queue, shardName, records, ids);
  }

  /** The descriptors of jobs just inserted into one shard, in request order. */
  private static List<JobDescriptor> descriptors(
      String queue, String shard, List<NewJobRecord> records, List<Long> ids) {
    if (ids.size() != records.size()) {
      throw new IllegalStateException(
          "shard "
              + shard
              + " returned "
              + ids.size()
              + " ids for "
              + records.size()
              + " jobs enqueued to queue '"
              + queue
              + "'; indicates a bug in the store");
    }
    List<JobDescriptor> descriptors = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      descriptors.add(new JobDescriptor(queue, shard, records.get(i).priority(), ids.get(i)));
    }
    return descriptors;
  }

  /** Inserts validated job records into one shard and returns their local ids, in order. */
  @FunctionalInterface
  public interface JobInsert {
    List<Long> insert(String queue, List<NewJobRecord> records);
  }

  /**
   * Validates the jobs and stamps them (run-after now unless given, created now) as store records.
   */
  private List<NewJobRecord> records(String queue, List<NewJob> jobs) {
    Validation.queueName(queue);
    Validation.required(jobs, "the list of jobs to enqueue");
    for (int i = 0; i < jobs.size(); i++) {
      NewJob job = Validation.required(jobs.get(i), "job #" + i + " of the enqueue request");
      String where = "job #" + i + " of the enqueue request";
      validation.priority(job.priority(), where);
      Validation.attemptsAllowed(job.attemptsAllowed(), where);
      validation.body(job.body(), where);
      Validation.uniqueness(job.uniqueKey(), job.uniqueFor(), where);
    }
    long now = clock.millis();
    List<NewJobRecord> records = new ArrayList<>(jobs.size());
    for (NewJob job : jobs) {
      long runAfter = job.runAfter() == null ? now : job.runAfter().toEpochMilli();
      records.add(
          new NewJobRecord(
              job.priority(),
              job.body(),
              runAfter,
              job.attemptsAllowed(),
              Validation.truncate(job.customStatus(), NewJob.CUSTOM_STATUS_MAX_CHARS),
              now,
              job.uniqueKey(),
              job.uniqueFor() == null
                  ? NewJobRecord.WHILE_ACTIVE
                  : now + job.uniqueFor().toMillis()));
    }
    return records;
  }

  @Override
  public List<DequeuedJob> dequeue(DequeueParams params) {
    Validation.required(params, "dequeue params");
    String queue = params.queue();
    Validation.queueName(queue);
    if (params.limit() < 1) {
      throw QueueException.invalid("dequeue limit must be >= 1, was " + params.limit());
    }
    Validation.source(params.source());
    Validation.coverage(params.coverage());
    AckParams ack = params.ack();
    if (ack != null && ack.queue() == null) {
      ack = new AckParams(queue, ack.succeeded(), ack.failed());
    }
    if (ack != null) {
      validateAck(ack);
    }

    if (ack != null && !ack.isEmpty()) {
      applyAck(ack);
    }
    if (pausedQueues.isPaused(queue)) {
      return List.of(); // paused: acks above still apply, no job leaves the queue
    }
    long now = clock.millis();
    Claim claim =
        params.dryRun()
            ? null
            : new Claim(nextClaimDescriptor(params.source()), params.source(), now);
    return take(queue, params.limit(), shards.forDequeue(params.coverage()), claim, now);
  }

  /**
   * Claims (or, without a claim, peeks at) up to {@code limit} jobs: priority by priority, shard by
   * shard. An unreachable shard is skipped for the rest of the request.
   */
  private List<DequeuedJob> take(
      String queue, int limit, List<ShardStore> shardsToVisit, Claim claim, long now) {
    List<ShardStore> visit = new ArrayList<>(shardsToVisit);
    List<DequeuedJob> result = new ArrayList<>();
    ShardFailures failures = new ShardFailures("dequeue from queue '" + queue + "'");
    for (int priority = 1; priority <= priorityLevels && result.size() < limit; priority++) {
      for (var it = visit.iterator(); it.hasNext() && result.size() < limit; ) {
        ShardStore shard = it.next();
        int needed = limit - result.size();
        List<StoredJob> jobs;
        try {
          jobs =
              claim == null
                  ? shard.peek(queue, priority, needed, now)
                  : shard.claim(queue, priority, needed, claim);
          failures.answered();
        } catch (QueueException e) {
          failures.skip(shard, e);
          it.remove();
          continue;
        }
        for (StoredJob job : jobs) {
          result.add(
              new DequeuedJob(
                  new JobDescriptor(queue, shard.name(), priority, job.localId()),
                  job.body(),
                  job.attemptsAllowed(),
                  job.attemptsRemaining(),
                  Math.max(0, now - Math.max(job.createdAtMillis(), job.runAfterMillis()))));
        }
      }
    }
    if (result.isEmpty()) {
      failures.throwIfNoneAnswered();
      requireQueue(queue);
    }
    return result;
  }

  @Override
  public void ack(AckParams params) {
    Validation.required(params, "ack params");
    validateAck(params);
    if (!params.isEmpty()) {
      applyAck(params);
    }
  }

  @Override
  public void checkpoint(String queue, String source, List<CheckpointParams> checkpoints) {
    Validation.queueName(queue);
    Validation.source(source);
    Validation.required(checkpoints, "the list of checkpoints");
    for (int i = 0; i < checkpoints.size(); i++) {
      CheckpointParams checkpoint = Validation.required(checkpoints.get(i), "checkpoint #" + i);
      String where = "checkpoint #" + i + " (" + checkpoint.job() + ")";
      requireSameQueue(queue, checkpoint.job(), where);
      validation.priority(checkpoint.job().priority(), where);
      if (checkpoint.newBody() != null) {
        validation.body(checkpoint.newBody(), where);
      }
    }
    if (checkpoints.isEmpty()) {
      return;
    }
    long now = clock.millis();
    Map<String, ShardStore> byName = shardsByName();
    int applied = 0;
    for (CheckpointParams checkpoint : checkpoints) {
      ShardStore shard = byName.get(checkpoint.job().shard());
      if (shard == null) {
        continue; // the job cannot exist
      }
      String prepend =
          checkpoint.prependCustomStatus() == null
              ? null
              : Validation.truncate(
                  checkpoint.prependCustomStatus(), ShardStore.CUSTOM_STATUS_MAX_CHARS);
      CheckpointRecord record =
          new CheckpointRecord(
              ref(checkpoint.job()),
              checkpoint.newBody(),
              checkpoint.moveToPending(),
              checkpoint.runAfter() == null ? now : checkpoint.runAfter().toEpochMilli(),
              checkpoint.attemptsAllowed(),
              prepend);
      if (shard.checkpoint(queue, source, record, now)) {
        applied++;
      }
    }
    if (applied < checkpoints.size()) {
      requireQueue(queue);
    }
  }

  @Override
  public Map<JobDescriptor, JobInfo> lookup(List<JobDescriptor> jobs, boolean includeBody) {
    Validation.required(jobs, "the list of jobs to look up");
    for (int i = 0; i < jobs.size(); i++) {
      JobDescriptor job = Validation.required(jobs.get(i), "job #" + i + " of the lookup request");
      Validation.queueName(job.queue());
      validation.priority(job.priority(), "lookup of " + job);
    }
    Map<String, ShardStore> byName = shardsByName();
    Map<JobDescriptor, JobInfo> found = new LinkedHashMap<>();
    for (JobDescriptor job : jobs) {
      ShardStore shard = byName.get(job.shard());
      if (shard == null || found.containsKey(job)) {
        continue;
      }
      shard
          .lookup(job.queue(), ref(job), includeBody)
          .ifPresent(stored -> found.put(job, toInfo(job, stored, includeBody)));
    }
    return Collections.unmodifiableMap(found);
  }

  @Override
  public int count(CountParams params) {
    Validation.required(params, "count params");
    Validation.queueName(params.queue());
    Validation.state(params.state(), "count");
    validation.optionalPriority(params.priority(), "the count request");
    BodyFilter filter = bodyFilter(params.bodyRegex());
    long now = clock.millis();
    long total = 0;
    ShardFailures failures = new ShardFailures("count of queue '" + params.queue() + "'");
    for (ShardStore shard : shards.healthyShuffled("count")) {
      try {
        for (int priority : priorities(params.priority())) {
          int n =
              shard.count(
                  params.queue(),
                  priority,
                  params.state(),
                  params.future(),
                  filter,
                  now,
                  countLimit);
          total += Math.min(n, countLimit);
        }
        failures.answered();
      } catch (QueueException e) {
        failures.skip(shard, e);
      }
    }
    failures.throwIfNoneAnswered();
    if (total == 0) {
      requireQueue(params.queue());
    }
    return (int) Math.min(total, Integer.MAX_VALUE);
  }

  @Override
  public ScanPage scan(ScanParams params) {
    Validation.required(params, "scan params");
    Validation.queueName(params.queue());
    Validation.state(params.state(), "scan");
    validation.optionalPriority(params.priority(), "the scan request");
    Validation.limit(params.limit(), Validation.MAX_SCAN_LIMIT, "scan");
    BodyFilter filter = bodyFilter(params.bodyRegex());
    String continuation = params.continuation();
    if (ScanParams.END.equals(continuation)) {
      return new ScanPage(List.of(), ScanParams.END);
    }
    ScanCursor cursor =
        ScanParams.START.equals(continuation) ? null : ScanCursor.parse(continuation);

    long now = clock.millis();
    int limit = params.limit();
    List<Scanned> merged = new ArrayList<>();
    ShardFailures failures = new ShardFailures("scan of queue '" + params.queue() + "'");
    for (ShardStore shard : shards.healthyShuffled("scan")) {
      try {
        for (int priority : priorities(params.priority())) {
          ScanBound after =
              cursor == null ? ScanBound.START : cursor.boundFor(shard.name(), priority);
          // One more than a page tells whether anything is left after this page.
          for (StoredJob job :
              shard.scan(
                  params.queue(),
                  priority,
                  params.state(),
                  params.future(),
                  filter,
                  now,
                  after,
                  limit + 1)) {
            merged.add(new Scanned(shard.name(), job));
          }
        }
        failures.answered();
      } catch (QueueException e) {
        failures.skip(shard, e);
      }
    }
    failures.throwIfNoneAnswered();
    merged.sort(Comparator.comparing(Scanned::key, ScanCursor.ORDER));
    List<Scanned> page = merged.subList(0, Math.min(limit, merged.size()));
    if (page.isEmpty() && cursor == null) {
      requireQueue(params.queue());
    }
    List<JobInfo> jobs = new ArrayList<>(page.size());
    for (Scanned scanned : page) {
      JobDescriptor descriptor =
          new JobDescriptor(
              params.queue(), scanned.shard(), scanned.job().priority(), scanned.job().localId());
      jobs.add(toInfo(descriptor, scanned.job(), false));
    }
    String next =
        merged.size() > limit
            ? ScanCursor.after(page.get(page.size() - 1).key()).token()
            : ScanParams.END;
    return new ScanPage(List.copyOf(jobs), next);
  }

  @Override
  public int retryFailed(RetryFailedParams params) {
    Validation.required(params, "retryFailed params");
    Validation.queueName(params.queue());
    validation.priority(params.priority(), "the retryFailed request");
    Validation.attemptsAllowed(params.attemptsToAllow(), "the retryFailed request");
    Validation.limit(params.limit(), Integer.MAX_VALUE, "retryFailed");
    long now = clock.millis();
    long runAfter = params.runAfter() == null ? now : params.runAfter().toEpochMilli();
    int remaining = params.limit();
    ShardFailures failures = new ShardFailures("retryFailed of queue '" + params.queue() + "'");
    for (ShardStore shard : shards.healthyShuffled("retryFailed")) {
      if (remaining <= 0) {
        break;
      }
      try {
        remaining -=
            shard.retryFailed(
                params.queue(),
                params.priority(),
                params.attemptsToAllow(),
                runAfter,
                remaining,
                now);
        failures.answered();
      } catch (QueueException e) {
        failures.skip(shard, e);
      }
    }
    return finishBulk(params.queue(), params.limit() - remaining, failures);
  }

  @Override
  public int deleteJobs(DeleteJobsParams params) {
    Validation.required(params, "deleteJobs params");
    Validation.queueName(params.queue());
    Validation.state(params.state(), "deleteJobs");
    validation.priority(params.priority(), "the deleteJobs request");
    Validation.limit(params.limit(), Integer.MAX_VALUE, "deleteJobs");
    BodyFilter filter = bodyFilter(params.bodyRegex());
    int remaining = params.limit();
    ShardFailures failures = new ShardFailures("deleteJobs of queue '" + params.queue() + "'");
    for (ShardStore shard : shards.healthyShuffled("deleteJobs")) {
      if (remaining <= 0) {
        break;
      }
      try {
        remaining -=
            shard.deleteJobs(params.queue(), params.priority(), params.state(), filter, remaining);
        failures.answered();
      } catch (QueueException e) {
        failures.skip(shard, e);
      }
    }
    return finishBulk(params.queue(), params.limit() - remaining, failures);
  }

  // ---------------------------------------------------------------------------------------------------
  // Helpers

  private int finishBulk(String queue, int affected, ShardFailures failures) {
    failures.throwIfNoneAnswered();
    if (affected == 0) {
      requireQueue(queue);
    }
    return affected;
  }

  private void validateAck(AckParams params) {
    Validation.queueName(params.queue());
    validateAckItems(params.queue(), params.succeeded(), "succeeded");
    validateAckItems(params.queue(), params.failed(), "failed");
  }

  private void validateAckItems(String queue, List<AckParams.Item> items, String list) {
    for (int i = 0; i < items.size(); i++) {
      AckParams.Item item =
          Validation.required(items.get(i), "ack #" + i + " of the " + list + " list");
      String where = "ack #" + i + " of the " + list + " list (" + item.job() + ")";
      requireSameQueue(queue, item.job(), where);
      validation.priority(item.job().priority(), where);
    }
  }

  private static void requireSameQueue(String queue, JobDescriptor job, String where) {
    if (!queue.equals(job.queue())) {
      throw QueueException.invalid(
          where
              + " names queue '"
              + job.queue()
              + "' but the request is for queue '"
              + queue
              + "'; send one request per queue");
    }
  }

  /**
   * Applies a validated ack: groups the jobs by shard, one ackSucceeded and one ackFailed call per
   * shard.
   */
  private void applyAck(AckParams params) {
    String queue = params.queue();
    long now = clock.millis();
    Map<String, ShardStore> byName = shardsByName();
    Map<String, List<AckRecord>> succeeded = groupByShard(params.succeeded(), byName);
    Map<String, List<AckRecord>> failed = groupByShard(params.failed(), byName);
    Set<String> touched = new TreeSet<>(succeeded.keySet());
    touched.addAll(failed.keySet());
    int changed = 0;
    QueueException unreachable = null;
    for (String name : touched) {
      ShardStore shard = byName.get(name);
      try {
        List<AckRecord> ok = succeeded.getOrDefault(name, List.of());
        List<AckRecord> bad = failed.getOrDefault(name, List.of());
        if (!ok.isEmpty()) {
          changed += shard.ackSucceeded(queue, ok, now);
        }
        if (!bad.isEmpty()) {
          changed += shard.ackFailed(queue, bad, now);
        }
      } catch (QueueException e) {
        if (!e.errorCode().shardUnavailable()) {
          throw e;
        }
        // Keep acking on the other shards; report the failure once they are done.
        unreachable = unreachable == null ? e : unreachable;
      }
    }
    if (unreachable != null) {
      throw unreachable;
    }
    if (changed < params.succeeded().size() + params.failed().size()) {
      requireQueue(queue);
    }
  }

  private static Map<String, List<AckRecord>> groupByShard(
      List<AckParams.Item> items, Map<String, ShardStore> shards) {
    Map<String, List<AckRecord>> groups = new HashMap<>();
    for (AckParams.Item item : items) {
      if (!shards.containsKey(item.job().shard())) {
        continue; // the job cannot exist
      }
      String append =
          Validation.truncate(item.appendCustomStatus(), ShardStore.CUSTOM_STATUS_MAX_CHARS);
      groups
          .computeIfAbsent(item.job().shard(), k -> new ArrayList<>())
          .add(new AckRecord(ref(item.job()), append, item.retryDelay().toMillis()));
    }
    return groups;
  }

  /**
   * QUEUE_NOT_FOUND unless the queue exists. Called only after an operation found or changed less
   * than asked, so that requests that did work pay no extra round trip.
   */
  private void requireQueue(String queue) {
    for (ShardStore shard : shards.all()) {
      if (!shard.healthy()) {
        continue;
      }
      try {
        if (shard.queueExists(queue)) {
          return;
        }
        throw QueueException.queueNotFound(queue);
      } catch (QueueException e) {
        if (!e.errorCode().shardUnavailable()) {
          throw e;
        }
      }
    }
    // No shard could answer: the operation itself did not fail, so do not invent an error.
  }

  private Map<String, ShardStore> shardsByName() {
    Map<String, ShardStore> byName = new HashMap<>();
    for (ShardStore shard : shards.all()) {
      byName.put(shard.name(), shard);
    }
    return byName;
  }

  private int[] priorities(Integer priority) {
    if (priority != null) {
      return new int[] {priority};
    }
    int[] all = new int[priorityLevels];
    for (int i = 0; i < priorityLevels; i++) {
      all[i] = i + 1;
    }
    return all;
  }

  private String nextClaimDescriptor(String source) {
    return serverId + ":" + startMillis + ":" + dequeueCalls.incrementAndGet() + ":" + source;
  }

  private QueueException noEnqueueShard(String queue) {
    List<ShardStore> all = shards.all();
    long dequeueOnly = all.stream().filter(ShardStore::dequeueOnly).count();
    long healthy = all.stream().filter(ShardStore::healthy).count();
    return new QueueException(
        ErrorCode.NO_HEALTHY_SHARDS,
        "enqueue to queue '"
            + queue
            + "': no healthy shard takes new jobs ("
            + all.size()
            + " shards, "
            + healthy
            + " healthy, "
            + dequeueOnly
            + " dequeue-only)");
  }

  private static JobRef ref(JobDescriptor job) {
    return new JobRef(job.priority(), job.localId());
  }

  private static JobInfo toInfo(JobDescriptor descriptor, StoredJob job, boolean includeBody) {
    return new JobInfo(
        descriptor,
        job.state(),
        job.attemptsAllowed(),
        job.attemptsRemaining(),
        job.customStatus() == null ? "" : job.customStatus(),
        Instant.ofEpochMilli(job.createdAtMillis()),
        Instant.ofEpochMilli(job.runAfterMillis()),
        Instant.ofEpochMilli(job.updatedAtMillis()),
        job.claimDescriptor(),
        includeBody ? job.body() : null);
  }

  /** A scanned job with the shard it came from. */
  private record Scanned(String shard, StoredJob job) {
    ScanCursor.Entry key() {
      return new ScanCursor.Entry(shard, job.priority(), job.runAfterMillis(), job.localId());
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Administration: pause and resume, delete or retry one job

  /**
   * Pauses ({@code true}) or resumes dequeues of a queue: a paused queue's dequeues return no job,
   * while enqueue, ack, lookup and the rest work as usual. The flag is stored with the queue on
   * every shard, so every server sharing the store applies it within its pause refresh interval
   * (this one at once). Every shard must answer; otherwise the error is thrown and the call may be
   * repeated.
   */
  public void setPaused(String queue, boolean paused) {
    Validation.queueName(queue);
    requireQueue(queue);
    for (ShardStore shard : shards.all()) {
      shard.setPaused(queue, paused);
    }
    pausedQueues.read(clock.millis());
  }

  /** The paused queues, as the store says now. */
  public Set<String> pausedQueues() {
    return Collections.unmodifiableSet(pausedQueues.read(clock.millis()));
  }

  /**
   * Deletes one job in any state; false if it does not exist. QUEUE_NOT_FOUND if its queue does
   * not.
   */
  public boolean deleteJob(JobDescriptor job) {
    Validation.required(job, "the job to delete");
    Validation.queueName(job.queue());
    validation.priority(job.priority(), "deleteJob of " + job);
    ShardStore shard = shardsByName().get(job.shard());
    boolean deleted = shard != null && shard.deleteJob(job.queue(), ref(job));
    if (!deleted) {
      requireQueue(job.queue());
    }
    return deleted;
  }

  @Override
  public boolean retryJob(JobDescriptor job, int attemptsToAllow) {
    Validation.required(job, "the job to retry");
    Validation.queueName(job.queue());
    validation.priority(job.priority(), "retryJob of " + job);
    Validation.attemptsAllowed(attemptsToAllow, "retryJob of " + job);
    long now = clock.millis();
    ShardStore shard = shardsByName().get(job.shard());
    boolean retried =
        shard != null && shard.retryJob(job.queue(), ref(job), attemptsToAllow, now, now);
    if (!retried) {
      requireQueue(job.queue());
    }
    return retried;
  }

  /** Builds a {@link QueueService}; {@link #build()} validates every setting. Not thread-safe. */
  public static final class Builder {
    private final QueueStore store;
    private int priorityLevels = DEFAULT_PRIORITY_LEVELS;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private int countLimit = 100_000;
    private String serverId = "flipper";
    private String adminPasswordHash = "";
    private Clock clock = Clock.systemUTC();
    private Random random = new Random();
    private Duration pauseRefresh = Duration.ofSeconds(1);
    private long bodyFilterStepsPerBody = BodyFilter.STEPS_PER_BODY;
    private Duration bodyFilterTimePerCall = BodyFilter.TIME_PER_CALL;

    private Builder(QueueStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** Priorities are 1..levels, 1 the highest. Default 3. */
    public Builder priorityLevels(int levels) {
      this.priorityLevels = levels;
      return this;
    }

    /** Larger bodies are refused with ENQUEUE_REJECTED. Default 1 MiB. */
    public Builder maxBodyBytes(int bytes) {
      this.maxBodyBytes = bytes;
      return this;
    }

    /** Counts stop at this many jobs per shard and priority. Default 100,000. */
    public Builder countLimit(int limit) {
      this.countLimit = limit;
      return this;
    }

    /** Names this server in claim descriptors, for example {@code host:9010}. */
    public Builder serverId(String id) {
      this.serverId = id;
      return this;
    }

    /** SHA-256 hex of the admin password (see {@link PasswordHash}); empty disables deleteQueue. */
    public Builder adminPasswordHash(String hash) {
      this.adminPasswordHash = hash;
      return this;
    }

    public Builder clock(Clock newClock) {
      this.clock = newClock;
      return this;
    }

    public Builder random(Random newRandom) {
      this.random = newRandom;
      return this;
    }

    /**
     * How often dequeues re-read which queues are paused from the store: a pause or resume made on
     * another server takes effect here within this time. Default 1 s; zero reads on every dequeue.
     */
    public Builder pauseRefresh(Duration refresh) {
      this.pauseRefresh = refresh;
      return this;
    }

    /**
     * The budgets of a body filter (see {@link BodyFilter}): characters one search may read in one
     * body, and time for all bodies of one call. Defaults {@link BodyFilter#STEPS_PER_BODY} and
     * {@link BodyFilter#TIME_PER_CALL}.
     */
    public Builder bodyFilterBudgets(long stepsPerBody, Duration timePerCall) {
      this.bodyFilterStepsPerBody = stepsPerBody;
      this.bodyFilterTimePerCall = timePerCall;
      return this;
    }

    public QueueService build() {
      if (priorityLevels < 1 || priorityLevels > 100) {
        throw new IllegalArgumentException("priorityLevels must be 1..100, was " + priorityLevels);
      }
      if (maxBodyBytes < 1) {
        throw new IllegalArgumentException("maxBodyBytes must be > 0, was " + maxBodyBytes);
      }
      if (countLimit < 1) {
        throw new IllegalArgumentException("countLimit must be > 0, was " + countLimit);
      }
      if (serverId == null || serverId.isBlank()) {
        throw new IllegalArgumentException("serverId must not be blank");
      }
      Objects.requireNonNull(adminPasswordHash, "adminPasswordHash");
      Objects.requireNonNull(clock, "clock");
      Objects.requireNonNull(random, "random");
      if (pauseRefresh == null || pauseRefresh.isNegative()) {
        throw new IllegalArgumentException(
            "pauseRefresh must be >= 0, was "
                + (pauseRefresh == null ? "null" : DurationText.format(pauseRefresh)));
      }
      if (bodyFilterStepsPerBody < 1) {
        throw new IllegalArgumentException(
            "bodyFilterStepsPerBody must be > 0, was " + bodyFilterStepsPerBody);
      }
      if (bodyFilterTimePerCall == null
          || bodyFilterTimePerCall.isNegative()
          || bodyFilterTimePerCall.isZero()) {
        throw new IllegalArgumentException(
            "bodyFilterTimePerCall must be > 0, was "
                + (bodyFilterTimePerCall == null
                    ? "null"
                    : DurationText.format(bodyFilterTimePerCall)));
      }
      return new QueueService(this);
    }
  }
}
