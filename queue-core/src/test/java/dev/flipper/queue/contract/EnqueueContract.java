package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.testing.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** enqueueJobs (docs/queue.md, "Operations"). */
abstract class EnqueueContract extends ContractArea {

  @Test
  void returnsOneDescriptorPerJobInRequestOrder() {
    List<NewJob> jobs =
        List.of(aJob("b0").withPriority(3), aJob("b1"), aJob("b2").withPriority(2), aJob("b3"));

    List<JobDescriptor> ids = enqueue(jobs);

    assertThat(ids).hasSize(4);
    for (int i = 0; i < ids.size(); i++) {
      JobDescriptor id = ids.get(i);
      assertThat(id.toString()).matches(queue() + ":s[^:]+:p[1-3]:\\d+");
      assertThat(JobDescriptor.parse(id.toString())).isEqualTo(id);
      assertThat(id.queue()).isEqualTo(queue());
      assertThat(id.priority()).isEqualTo(jobs.get(i).priority());
      assertThat(Jobs.text(lookup(id).body())).isEqualTo("b" + i);
    }
    assertThat(ids.stream().map(JobDescriptor::shard).distinct())
        .as("one request, one shard")
        .hasSize(1);
  }

  @Test
  void aBodyOf64KibOfRandomBytesComesBackByteForByte() {
    byte[] body = new byte[64 * 1024];
    new Random(42).nextBytes(body);
    body[0] = (byte) 0xC3; // an invalid UTF-8 sequence at the start, whatever the random bytes are
    body[1] = (byte) 0x28;

    JobDescriptor id = enqueue(NewJob.of(body)).get(0);

    assertThat(lookup(id).body()).as("lookup with body").isEqualTo(body);
    assertThat(dequeue(1)).singleElement().satisfies(job -> assertThat(job.body()).isEqualTo(body));
  }

  @Test
  void enqueueToAQueueThatWasNeverCreatedFails() {
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () -> api().enqueue("no_such_queue", List.of(aJob())),
        "no_such_queue");
    assertThat(api().queueNames()).doesNotContain("no_such_queue");
  }

  @Test
  void priorityOutsideTheLevelsIsNotSupportedAndStoresNothing() {
    for (int bad : new int[] {0, 4, -1, 100}) {
      assertFails(
          ErrorCode.PRIORITY_NOT_SUPPORTED,
          () -> enqueue(aJob("ok"), aJob("bad").withPriority(bad)),
          "priority " + bad,
          "1..3");
    }
    assertThat(snapshot()).isEmpty();
  }

  @Test
  void aNewJobIsPendingWithItsAttemptsTimesAndStatus() {
    Instant now = clock().instant();
    Instant later = now.plus(Duration.ofMinutes(5));
    List<JobDescriptor> ids =
        enqueue(
            aJob("now").withAttemptsAllowed(4).withCustomStatus("hello"),
            aJob("later").withRunAfter(later));

    JobInfo first = lookup(ids.get(0));
    assertThat(first.state()).isEqualTo(JobState.PENDING);
    assertThat(first.attemptsAllowed()).isEqualTo(4);
    assertThat(first.attemptsRemaining()).isEqualTo(4);
    assertThat(first.createdAt()).isEqualTo(now);
    assertThat(first.updatedAt()).isEqualTo(now);
    assertThat(first.runAfter()).isEqualTo(now);
    assertThat(first.customStatus()).isEqualTo("hello");
    assertThat(first.claimDescriptor()).isNull();

    JobInfo second = lookup(ids.get(1));
    assertThat(second.runAfter()).isEqualTo(later);
    assertThat(second.attemptsAllowed()).isEqualTo(NewJob.DEFAULT_ATTEMPTS_ALLOWED);
    assertThat(second.attemptsRemaining()).isEqualTo(NewJob.DEFAULT_ATTEMPTS_ALLOWED);
    assertThat(second.customStatus()).isEmpty();
  }

  @Test
  void customStatusIsTruncatedTo5000Characters() {
    JobDescriptor id = enqueue(aJob().withCustomStatus("*".repeat(6000))).get(0);

    assertThat(lookup(id).customStatus()).isEqualTo("*".repeat(NewJob.CUSTOM_STATUS_MAX_CHARS));
  }

  @Test
  void bodiesAreStoredByteForByte() {
    byte[] body = new byte[256];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) i;
    }
    byte[] empty = new byte[0];
    List<JobDescriptor> ids = enqueue(NewJob.of(body), NewJob.of(empty));

    assertThat(lookup(ids.get(0)).body()).isEqualTo(body);
    assertThat(lookup(ids.get(1)).body()).isEqualTo(empty);
    assertThat(dequeue(2)).extracting(j -> j.body().length).containsExactlyInAnyOrder(256, 0);
  }

  @Test
  void anEmptyJobListReturnsNoDescriptors() {
    assertThat(enqueue(List.of())).isEmpty();
    assertThat(snapshot()).isEmpty();
  }

  @Test
  void descriptorsAreUniqueWithinAQueue() {
    Set<JobDescriptor> all = new HashSet<>();
    for (int batch = 0; batch < 6; batch++) {
      all.addAll(enqueue(Jobs.jobs(25, i -> aJob().withPriority(1 + i % 3))));
    }
    assertThat(all).hasSize(150);
    assertThat(all.stream().map(JobDescriptor::toString).distinct()).hasSize(150);
  }

  @Test
  void jobsNeverGoToDequeueOnlyShardsAndSpreadEvenlyOverTheOthers() {
    fx().useShards(TestShard.of("1"), TestShard.of("2"), TestShard.dequeueOnly("3"));

    List<JobDescriptor> ids = enqueueOneByOne(Jobs.numbered("spread_", 500));

    Map<String, List<JobDescriptor>> byShard = byShard(ids);
    assertThat(byShard).containsOnlyKeys("1", "2");
    assertThat(byShard.get("1").size()).isBetween(200, 300); // mean 250, ±20%
    assertThat(byShard.get("2").size()).isBetween(200, 300);
  }
}
