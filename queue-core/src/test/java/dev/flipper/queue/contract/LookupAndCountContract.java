package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.JobState;
import dev.flipper.queue.ScanParams;
import dev.flipper.queue.testing.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** lookupJobs and getJobCount (docs/queue.md, "Operations"); PinLater's testGetJobCount. */
abstract class LookupAndCountContract extends ContractArea {

  @Test
  void lookupReturnsExistingJobsKeyedInRequestOrderAndOmitsMissingOnes() {
    List<JobDescriptor> ids = enqueue(aJob("a"), aJob("b").withPriority(2), aJob("c"));
    JobDescriptor missingId =
        new JobDescriptor(queue(), ids.get(0).shard(), 1, ids.get(2).localId() + 1000);
    JobDescriptor wrongPriority =
        new JobDescriptor(queue(), ids.get(1).shard(), 3, ids.get(1).localId());
    JobDescriptor unknownShard =
        new JobDescriptor(queue(), "no_such_shard", 1, ids.get(0).localId());
    JobDescriptor unknownQueue =
        new JobDescriptor("no_such_queue", ids.get(0).shard(), 1, ids.get(0).localId());
    List<JobDescriptor> request =
        List.of(
            ids.get(2),
            missingId,
            ids.get(0),
            wrongPriority,
            unknownShard,
            unknownQueue,
            ids.get(1));

    Map<JobDescriptor, JobInfo> found = api().lookup(request, false);

    assertThat(found.keySet()).containsExactly(ids.get(2), ids.get(0), ids.get(1));
    found.forEach((id, info) -> assertThat(info.descriptor()).isEqualTo(id));
  }

  @Test
  void lookupIncludesTheBodyOnlyWhenAsked() {
    JobDescriptor id = enqueue(aJob("body_text")).get(0);

    assertThat(api().lookup(List.of(id), false).get(id).body()).isNull();
    assertThat(Jobs.text(api().lookup(List.of(id), true).get(id).body())).isEqualTo("body_text");
  }

  @Test
  void lookupUsesEachDescriptorsOwnQueue() {
    api().createQueue("second_queue");
    JobDescriptor first = enqueue(aJob("in_first")).get(0);
    JobDescriptor second = api().enqueue("second_queue", List.of(aJob("in_second"))).get(0);

    Map<JobDescriptor, JobInfo> found = api().lookup(List.of(first, second), true);

    assertThat(Jobs.text(found.get(first).body())).isEqualTo("in_first");
    assertThat(Jobs.text(found.get(second).body())).isEqualTo("in_second");
  }

  @Test
  void countWithoutPrioritySumsAllPrioritiesAndWithOneCountsOnlyIt() {
    enqueueOneByOne(Jobs.jobs(9, i -> aJob().withPriority(1 + i % 3)));
    enqueue(aJob().withPriority(2));

    assertThat(count(JobState.PENDING)).isEqualTo(10);
    assertThat(count(JobState.PENDING, 1)).isEqualTo(3);
    assertThat(count(JobState.PENDING, 2)).isEqualTo(4);
    assertThat(count(JobState.PENDING, 3)).isEqualTo(3);
    assertThat(count(JobState.IN_PROGRESS)).isZero();
  }

  @Test
  void getJobCountScenario() {
    enqueueOneByOne(Jobs.jobs(20, i -> aJob("job_body_" + i)));
    assertThat(count(JobState.PENDING, 1)).isEqualTo(20);
    assertThat(countMatching(JobState.PENDING, 1, "job_body_1.*")).isEqualTo(11);
    assertThat(countMatching(JobState.PENDING, 1, "job_body_*")).isEqualTo(20);

    Instant future = clock().instant().plus(Duration.ofHours(1));
    enqueueOneByOne(Jobs.jobs(15, i -> aJob("future_" + i).withPriority(2).withRunAfter(future)));
    assertThat(count(JobState.PENDING, 2)).isZero();
    assertThat(api().count(new CountParams(queue(), JobState.PENDING, 2, true, null)))
        .isEqualTo(15);

    List<JobDescriptor> claimed = ids(dequeue(5));
    assertThat(count(JobState.IN_PROGRESS, 1)).isEqualTo(5);
    ackSucceeded(claimed);
    assertThat(count(JobState.SUCCEEDED, 1)).isEqualTo(5);

    enqueueOneByOne(Jobs.jobs(10, i -> aJob("now_" + i).withPriority(2)));
    assertThat(count(JobState.PENDING)).isEqualTo(25);
  }

  @Test
  void futureCountsOnlyJobsWhoseRunAfterIsAfterNow() {
    Instant now = clock().instant();
    enqueue(
        aJob().withRunAfter(now.minusSeconds(10)),
        aJob(),
        aJob().withRunAfter(now.plusMillis(1)),
        aJob().withRunAfter(now.plusSeconds(3600)));

    assertThat(count(JobState.PENDING)).isEqualTo(2);
    assertThat(countFuture(JobState.PENDING)).isEqualTo(2);
  }

  @Test
  void countsAreCappedPerShardAndPriority() {
    JobQueue capped = fx().apiWith(b -> b.countLimit(5));
    List<JobDescriptor> p1 = enqueueOneByOne(Jobs.numbered("capped_", 40));
    enqueue(Jobs.jobs(2, i -> aJob().withPriority(2)));

    int expected = 2;
    for (List<JobDescriptor> onShard : byShard(p1).values()) {
      expected += Math.min(onShard.size(), 5);
    }
    assertThat(capped.count(CountParams.of(queue(), JobState.PENDING))).isEqualTo(expected);
  }

  @Test
  void countOfAQueueThatDoesNotExistFails() {
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () -> api().count(CountParams.of("no_such_queue", JobState.PENDING)),
        "no_such_queue");
  }

  @Test
  void bodyRegexIsAnUnanchoredJavaRegex() {
    List<String> bodies = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      bodies.add((i % 2 == 0 ? "even" : "odd") + "_" + i);
    }
    enqueue(bodies.stream().map(Jobs::aJob).toList());

    assertThat(countMatching(JobState.PENDING, 1, ".*even.*")).isEqualTo(5);
    assertThat(countMatching(JobState.PENDING, 1, "even")).isEqualTo(5);
    assertThat(countMatching(JobState.PENDING, 1, "^odd_[13]$")).isEqualTo(2);
    assertThat(countMatching(JobState.PENDING, 1, "'; DROP TABLE jobs; --")).isZero();
  }

  /** Issue 16 item 4: a backreference over 40 a's ran for hours holding a database connection. */
  @Test
  void aBacktrackingBodyRegexFailsNamingTheStepBudgetAndChangesNothing() {
    enqueue(List.of(aJob("a".repeat(40)), aJob("b")));
    String regex = "((a+)+)\\2b";

    assertInvalid(() -> countMatching(JobState.PENDING, 1, regex), "step budget", regex);
    assertInvalid(
        () ->
            api()
                .scan(
                    new ScanParams(
                        queue(), JobState.PENDING, 1, false, ScanParams.START, 10, regex)),
        "step budget",
        regex);
    assertInvalid(
        () -> api().deleteJobs(new DeleteJobsParams(queue(), JobState.PENDING, 1, regex, 10)),
        "step budget",
        regex);

    assertThat(countMatching(JobState.PENDING, 1, "a{40}")).isEqualTo(1);
    assertThat(countMatching(JobState.PENDING, 1, null)).isEqualTo(2);
  }

  private int countMatching(JobState state, int priority, String regex) {
    return api().count(new CountParams(queue(), state, priority, false, regex));
  }
}
