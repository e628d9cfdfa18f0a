package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueService;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * createQueue, deleteQueue, queueNames (docs/queue.md, "Operations"); PinLater's
 * testCreateQueueThatAlreadyExists and friends.
 */
abstract class QueueAdminContract extends ContractArea {

  @Test
  void createQueueRejectsNamesOutsideLettersDigitsAndUnderscore() {
    for (String bad : List.of("bad-name", "a b", "", "q:1", "dot.ted", "ünïcode")) {
      assertFails(ErrorCode.QUEUE_NAME_INVALID, () -> api().createQueue(bad), "queue name");
    }
    assertFails(ErrorCode.QUEUE_NAME_INVALID, () -> api().createQueue(null));
    assertThat(api().queueNames()).isEmpty();
  }

  @Test
  void createQueueRejectsNamesLongerThanTheLimit() {
    String longest = "q".repeat(QueueService.MAX_QUEUE_NAME_LENGTH);
    assertFails(
        ErrorCode.QUEUE_NAME_TOO_LONG,
        () -> api().createQueue(longest + "q"),
        String.valueOf(QueueService.MAX_QUEUE_NAME_LENGTH));

    api().createQueue(longest);
    api().enqueue(longest, List.of(aJob()));
    assertThat(api().queueNames()).containsExactly(longest);
  }

  @Test
  void createQueueIsIdempotentAndKeepsJobs() {
    JobDescriptor job = enqueue(aJob("kept")).get(0);

    api().createQueue(queue());
    api().createQueue(queue());

    assertThat(count(JobState.PENDING)).isEqualTo(1);
    assertThat(lookup(job)).isNotNull();
  }

  @Test
  void deleteQueueWithWrongPasswordFailsAndKeepsEverything() {
    enqueue(aJob());

    assertFails(ErrorCode.PASSWORD_INVALID, () -> api().deleteQueue(queue(), "wrong"), "password");
    assertFails(ErrorCode.PASSWORD_INVALID, () -> api().deleteQueue(queue(), null), "password");

    assertThat(api().queueNames()).contains(queue());
    assertThat(count(JobState.PENDING)).isEqualTo(1);
  }

  @Test
  void deleteQueueIsDisabledWithoutAnAdminPasswordHash() {
    JobQueue noHash = fx().apiWith(b -> b.adminPasswordHash(""));
    noHash.createQueue("guarded");

    assertFails(
        ErrorCode.PASSWORD_INVALID,
        () -> noHash.deleteQueue("guarded", ""),
        "disabled",
        "adminPasswordHash",
        "hash-password");
    assertThat(noHash.queueNames()).contains("guarded");
  }

  @Test
  void deleteQueueRemovesTheQueueAndAllItsJobsAndIsIdempotent() {
    List<JobDescriptor> jobs = enqueueOneByOne(List.of(aJob("a"), aJob("b"), aJob("c"), aJob("d")));
    List<JobDescriptor> claimed = ids(dequeue(2));
    ackSucceeded(claimed.subList(0, 1));
    api().createQueue("other_queue");

    api().deleteQueue(queue(), ContractFixture.ADMIN_PASSWORD);
    api().deleteQueue(queue(), ContractFixture.ADMIN_PASSWORD);
    api().deleteQueue("never_created", ContractFixture.ADMIN_PASSWORD);

    assertThat(api().queueNames()).doesNotContain(queue()).contains("other_queue");
    assertFails(ErrorCode.QUEUE_NOT_FOUND, () -> api().enqueue(queue(), List.of(aJob())), queue());
    assertThat(api().lookup(jobs, false)).isEmpty();

    api().createQueue(queue());
    assertThat(snapshot()).isEqualTo(Map.of());
  }

  @Test
  void queueNamesListsEveryCreatedNotDeletedQueue() {
    assertThat(api().queueNames()).isEmpty();
    for (String name : List.of("q0", "q1", "q2", "gone")) {
      api().createQueue(name);
    }
    api().deleteQueue("gone", ContractFixture.ADMIN_PASSWORD);

    assertThat(api().queueNames()).containsExactlyInAnyOrder("q0", "q1", "q2");
  }
}
