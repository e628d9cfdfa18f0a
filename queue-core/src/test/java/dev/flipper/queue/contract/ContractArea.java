package dev.flipper.queue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Shared helpers of the contract areas. Every helper works on the default queue through the test's
 * {@link JobQueue} ({@link #api()}, the service as the backend exposes it); the area's nested class
 * in {@link QueueContractTest} supplies the fixture.
 */
abstract class ContractArea {
  static final String SOURCE = "test-dequeuer";

  abstract ContractFixture fx();

  /** The queue under test; every operation of a test goes through it. */
  JobQueue api() {
    return fx().api();
  }

  String queue() {
    return fx().queue();
  }

  MutableClock clock() {
    return fx().clock;
  }

  List<JobDescriptor> enqueue(NewJob... jobs) {
    return enqueue(List.of(jobs));
  }

  List<JobDescriptor> enqueue(List<NewJob> jobs) {
    return api().enqueue(queue(), jobs);
  }

  /** Enqueues each job in its own request, so they spread over the shards. */
  List<JobDescriptor> enqueueOneByOne(List<NewJob> jobs) {
    List<JobDescriptor> ids = new ArrayList<>();
    for (NewJob job : jobs) {
      ids.addAll(enqueue(job));
    }
    return ids;
  }

  List<DequeuedJob> dequeue(int limit) {
    return api().dequeue(DequeueParams.of(queue(), limit, SOURCE));
  }

  List<DequeuedJob> dryRun(int limit) {
    return api().dequeue(DequeueParams.of(queue(), limit, SOURCE).withDryRun(true));
  }

  static List<JobDescriptor> ids(List<DequeuedJob> jobs) {
    return jobs.stream().map(DequeuedJob::descriptor).toList();
  }

  void ackSucceeded(Collection<JobDescriptor> jobs) {
    api().ack(new AckParams(queue(), items(jobs, Duration.ZERO), List.of()));
  }

  void ackFailed(Collection<JobDescriptor> jobs) {
    ackFailed(jobs, Duration.ZERO);
  }

  void ackFailed(Collection<JobDescriptor> jobs, Duration retryDelay) {
    api().ack(new AckParams(queue(), List.of(), items(jobs, retryDelay)));
  }

  static List<AckParams.Item> items(Collection<JobDescriptor> jobs, Duration retryDelay) {
    return jobs.stream().map(job -> new AckParams.Item(job, "", retryDelay)).toList();
  }

  /** Jobs in the state due now, over all priorities. */
  int count(JobState state) {
    return api().count(CountParams.of(queue(), state));
  }

  int count(JobState state, int priority) {
    return api().count(new CountParams(queue(), state, priority, false, null));
  }

  int countFuture(JobState state) {
    return api().count(new CountParams(queue(), state, null, true, null));
  }

  /** Jobs per state, due now and future together; the states with none are absent. */
  Map<JobState, Integer> snapshot() {
    Map<JobState, Integer> counts = new EnumMap<>(JobState.class);
    for (JobState state : JobState.values()) {
      int n = count(state) + countFuture(state);
      if (n > 0) {
        counts.put(state, n);
      }
    }
    return counts;
  }

  /** The job with its body, or null if it does not exist. */
  JobInfo lookup(JobDescriptor job) {
    return api().lookup(List.of(job), true).get(job);
  }

  JobInfo lookupWithoutBody(JobDescriptor job) {
    return api().lookup(List.of(job), false).get(job);
  }

  static Map<String, List<JobDescriptor>> byShard(Collection<JobDescriptor> jobs) {
    Map<String, List<JobDescriptor>> groups = new TreeMap<>();
    for (JobDescriptor job : jobs) {
      groups.computeIfAbsent(job.shard(), k -> new ArrayList<>()).add(job);
    }
    return groups;
  }

  /**
   * Asserts the call fails with the code and a message containing every fragment; returns the
   * error.
   */
  static QueueException assertFails(
      ErrorCode code, ThrowingCallable call, String... messageFragments) {
    QueueException e = catchThrowableOfType(QueueException.class, call);
    assertThat(e).as("expected a QueueException(%s)", code).isNotNull();
    assertThat(e.errorCode()).as("error code of: %s", e.getMessage()).isEqualTo(code);
    for (String fragment : messageFragments) {
      assertThat(e.getMessage()).containsIgnoringCase(fragment);
    }
    return e;
  }

  /**
   * Asserts the call is rejected as invalid (UNKNOWN, "invalid request") with the fragments in the
   * message.
   */
  static QueueException assertInvalid(ThrowingCallable call, String... messageFragments) {
    QueueException e = assertFails(ErrorCode.UNKNOWN, call, messageFragments);
    assertThat(e.getMessage()).startsWith("invalid request");
    return e;
  }
}
