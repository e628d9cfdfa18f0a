package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * scanJobs (docs/queue.md, "Operations"); PinLater's testScanJobs, testScanJobsBadContinuation. Fix
 * over the original: scans page with a continuation, and paging returns every job exactly once.
 */
abstract class ScanContract extends ContractArea {

  @Test
  void aMalformedContinuationIsInvalid() {
    enqueue(aJob());
    for (String bad :
        List.of(
            "INVALID_CONTINUATION",
            "",
            "v1",
            "v1.x.1.1.1",
            "v2.1.1.1.1",
            "v1.1.1.1.",
            "v1.1.1.-5.1")) {
      assertFails(
          ErrorCode.CONTINUATION_INVALID,
          () -> scan(JobState.PENDING, null, false, bad, 10, null),
          "continuation");
    }
  }

  @Test
  void scanJobsScenario() {
    Instant now = clock().instant();
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      jobs.add(
          aJob("job_body_" + i)
              .withPriority(i % 2 == 0 ? 1 : 2)
              .withRunAfter(now.minusSeconds(i + 1)));
    }
    for (int i = 20; i < 50; i++) {
      jobs.add(aJob("job_body_" + i).withPriority(1 + i % 3).withRunAfter(now.plusSeconds(i)));
    }
    enqueueOneByOne(jobs);

    ScanPage p1 = scan(JobState.PENDING, 1, false, ScanParams.START, 100, null);
    assertThat(p1.jobs()).hasSize(10);
    assertThat(p1.continuation()).isEqualTo(ScanParams.END);
    assertThat(p1.jobs()).isSortedAccordingTo(Comparator.comparing(JobInfo::runAfter).reversed());
    for (JobInfo job : p1.jobs()) {
      assertThat(job.descriptor().queue()).isEqualTo(queue());
      assertThat(job.descriptor().priority()).isEqualTo(1);
      assertThat(job.state()).isEqualTo(JobState.PENDING);
      assertThat(job.attemptsAllowed()).isEqualTo(2);
      assertThat(job.attemptsRemaining()).isEqualTo(2);
      assertThat(job.claimDescriptor()).isNull();
      assertThat(job.customStatus()).isEmpty();
      assertThat(job.body()).isNull();
      assertThat(job.runAfter()).isBefore(now);
      assertThat(job.createdAt()).isEqualTo(now);
      assertThat(job.updatedAt()).isEqualTo(now);
    }

    assertThat(scan(JobState.PENDING, 1, false, ScanParams.START, 100, "job_body_1.*").jobs())
        .hasSize(5);

    ScanPage future = scan(JobState.PENDING, null, true, ScanParams.START, 20, null);
    assertThat(future.jobs()).hasSize(20);
    assertThat(future.jobs()).allSatisfy(job -> assertThat(job.runAfter()).isAfter(now));
    assertThat(future.jobs())
        .isSortedAccordingTo(Comparator.comparing(JobInfo::runAfter).reversed());
    assertThat(future.jobs().get(0).runAfter()).isEqualTo(now.plusSeconds(49));

    assertThat(scan(JobState.PENDING, null, true, ScanParams.START, 5, "job_body_3.*").jobs())
        .hasSize(5);
  }

  @Test
  void scanHonoursTheStateFilter() {
    List<JobDescriptor> ids = enqueue(aJob("a"), aJob("b"), aJob("c"));
    dequeue(1);

    assertThat(scan(JobState.PENDING, null, false, ScanParams.START, 10, null).jobs()).hasSize(2);
    List<JobInfo> inProgress =
        scan(JobState.IN_PROGRESS, null, false, ScanParams.START, 10, null).jobs();
    assertThat(inProgress).hasSize(1);
    assertThat(inProgress.get(0).claimDescriptor()).contains(SOURCE);
    assertThat(ids).contains(inProgress.get(0).descriptor());
    assertThat(scan(JobState.FAILED, null, false, ScanParams.START, 10, null).jobs()).isEmpty();
  }

  @Test
  void pagingReturnsEveryJobExactlyOnceInOrder() {
    Instant now = clock().instant();
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      // Only 7 distinct run-after values, so most jobs tie with others on other shards and
      // priorities.
      jobs.add(aJob("page_" + i).withPriority(1 + i % 3).withRunAfter(now.minusSeconds(i % 7)));
    }
    List<JobDescriptor> ids = enqueueOneByOne(jobs);
    assertThat(byShard(ids)).hasSize(2);

    for (int limit : new int[] {1, 4, 7, 60, 100}) {
      List<JobInfo> all = scanAll(null, limit);
      assertThat(all)
          .extracting(JobInfo::descriptor)
          .as("limit %d", limit)
          .containsExactlyInAnyOrderElementsOf(ids);
      assertThat(all).isSortedAccordingTo(Comparator.comparing(JobInfo::runAfter).reversed());
    }
    List<JobInfo> priorityTwo = scanAll(2, 3);
    assertThat(priorityTwo)
        .extracting(JobInfo::descriptor)
        .containsExactlyInAnyOrderElementsOf(
            ids.stream().filter(id -> id.priority() == 2).toList());
  }

  @Test
  void aPageThatHoldsEverythingEndsTheScan() {
    enqueue(aJob(), aJob());

    assertThat(scan(JobState.PENDING, null, false, ScanParams.START, 2, null).continuation())
        .isEqualTo(ScanParams.END);
    ScanPage partial = scan(JobState.PENDING, null, false, ScanParams.START, 1, null);
    assertThat(partial.hasMore()).isTrue();
    ScanPage last = scan(JobState.PENDING, null, false, partial.continuation(), 1, null);
    assertThat(last.jobs()).hasSize(1);
    assertThat(last.continuation()).isEqualTo(ScanParams.END);
    assertThat(scan(JobState.PENDING, null, false, ScanParams.END, 1, null).jobs()).isEmpty();
  }

  @Test
  void scanOfAQueueThatDoesNotExistFails() {
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () -> api().scan(ScanParams.of("no_such_queue", JobState.PENDING)),
        "no_such_queue");
  }

  private List<JobInfo> scanAll(Integer priority, int limit) {
    List<JobInfo> all = new ArrayList<>();
    Set<JobDescriptor> seen = new HashSet<>();
    String continuation = ScanParams.START;
    for (int pages = 0; pages < 1000; pages++) {
      ScanPage page = scan(JobState.PENDING, priority, false, continuation, limit, null);
      assertThat(page.jobs().size()).isLessThanOrEqualTo(limit);
      for (JobInfo job : page.jobs()) {
        assertThat(seen.add(job.descriptor()))
            .as("returned twice with limit %d: %s", limit, job.descriptor())
            .isTrue();
      }
      all.addAll(page.jobs());
      if (!page.hasMore()) {
        return all;
      }
      continuation = page.continuation();
    }
    throw new AssertionError("scan did not end after 1000 pages");
  }

  private ScanPage scan(
      JobState state,
      Integer priority,
      boolean future,
      String continuation,
      int limit,
      String regex) {
    return api().scan(new ScanParams(queue(), state, priority, future, continuation, limit, regex));
  }
}
