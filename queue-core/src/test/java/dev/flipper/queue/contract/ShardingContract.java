package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flipper.queue.CountParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.JobState;
import dev.flipper.queue.testing.Jobs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Several servers over one storage, and shards that are unhealthy or unreachable (docs/queue.md,
 * "Storage", with the fix that one bad shard never fails a request the other shards can serve).
 * Tests that need the failure hooks are skipped for backends that cannot simulate failures.
 */
abstract class ShardingContract extends ContractArea {

  @Test
  void aSecondServerOverTheSameStorageSeesAndChangesTheSameJobs() {
    List<JobDescriptor> ids = enqueue(aJob("shared"));
    JobQueue other = fx().secondServerApi();

    assertThat(other.queueNames()).contains(queue());
    List<DequeuedJob> claimed = other.dequeue(DequeueParams.of(queue(), 10, "other-worker"));
    assertThat(ids(claimed)).containsExactlyElementsOf(ids);
    ackSucceeded(ids);

    JobInfo job = other.lookup(ids, false).get(ids.get(0));
    assertThat(job.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(job.claimDescriptor()).contains("server-b").contains("other-worker");
  }

  @Test
  void everyDequeueCallHasItsOwnClaimDescriptor() {
    List<JobDescriptor> ids = enqueue(aJob(), aJob(), aJob());

    dequeue(2);
    dequeue(1);

    Map<JobDescriptor, JobInfo> jobs = api().lookup(ids, false);
    assertThat(jobs.values().stream().map(JobInfo::claimDescriptor).distinct()).hasSize(2);
    assertThat(jobs.values()).allSatisfy(job -> assertThat(job.claimDescriptor()).contains(SOURCE));
  }

  @Test
  void unhealthyShardsGetNoNewJobsAndAreSkippedByDequeue() {
    List<JobDescriptor> before = enqueueOneByOne(Jobs.numbered("before_", 20));
    assumeTrue(fx().setShardHealthy("2", false), "backend cannot mark a shard unhealthy");

    List<JobDescriptor> during = enqueueOneByOne(Jobs.numbered("during_", 10));
    assertThat(byShard(during)).containsOnlyKeys("1");
    List<DequeuedJob> claimed = dequeue(100);
    assertThat(byShard(ids(claimed))).containsOnlyKeys("1");

    fx().setShardHealthy("2", true);
    assertThat(ids(dequeue(100))).containsExactlyInAnyOrderElementsOf(byShard(before).get("2"));
  }

  @Test
  void noHealthyShardForNewJobsFailsTheEnqueue() {
    queue();
    assumeTrue(fx().setShardHealthy("1", false), "backend cannot mark a shard unhealthy");
    fx().setShardHealthy("2", false);

    assertFails(ErrorCode.NO_HEALTHY_SHARDS, () -> enqueue(aJob()), queue());
  }

  @Test
  void anUnreachableShardIsSkippedByReadsAndDequeues() {
    List<JobDescriptor> ids = enqueueOneByOne(Jobs.numbered("job_", 20));
    Map<String, List<JobDescriptor>> byShard = byShard(ids);
    assumeTrue(fx().setShardReachable("2", false), "backend cannot make a shard unreachable");

    assertThat(count(JobState.PENDING)).isEqualTo(byShard.get("1").size());
    assertThat(api().queueNames()).contains(queue());
    assertThat(ids(dequeue(100))).containsExactlyInAnyOrderElementsOf(byShard.get("1"));
    assertThat(dequeue(100)).isEmpty();

    fx().setShardReachable("2", true);
    assertThat(ids(dequeue(100))).containsExactlyInAnyOrderElementsOf(byShard.get("2"));
  }

  @Test
  void anEnqueueIsRetriedOnceOnAnotherShardWhenItsShardIsUnreachable() {
    queue();
    assumeTrue(fx().setShardReachable("2", false), "backend cannot make a shard unreachable");

    List<JobDescriptor> ids = enqueueOneByOne(Jobs.numbered("job_", 20));

    assertThat(byShard(ids)).containsOnlyKeys("1");
    fx().setShardReachable("2", true);
    assertThat(count(JobState.PENDING)).isEqualTo(20);
  }

  @Test
  void whenEveryShardIsUnreachableRequestsFailWithShardConnectionFailed() {
    queue();
    assumeTrue(fx().setShardReachable("1", false), "backend cannot make a shard unreachable");
    fx().setShardReachable("2", false);

    assertFails(ErrorCode.SHARD_CONNECTION_FAILED, () -> enqueue(aJob()));
    assertFails(ErrorCode.SHARD_CONNECTION_FAILED, () -> dequeue(1));
    assertFails(
        ErrorCode.SHARD_CONNECTION_FAILED,
        () -> api().count(CountParams.of(queue(), JobState.PENDING)));
  }
}
