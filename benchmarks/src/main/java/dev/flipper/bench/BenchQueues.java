package dev.flipper.bench;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.server.QueueServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The queue server the UI benchmark's queue dashboard reads: in memory, on a free loopback port,
 * with {@code queues} queues of {@code jobsPerQueue} jobs each over 3 priorities, a tenth of them
 * FAILED. The dashboard's cost is its Thrift calls (counts per state and priority, scans, lookups),
 * which this measures; counting on a database adds the store's own time. Not thread-safe; close it.
 */
final class BenchQueues implements AutoCloseable {
  private final QueueServer server;
  private final JobDescriptor failedJob;

  BenchQueues(int queues, int jobsPerQueue) {
    QueueService service =
        QueueService.builder(InMemoryQueueStore.withShards("1", "2")).serverId("bench").build();
    JobDescriptor failed = null;
    for (int q = 0; q < queues; q++) {
      String queue = "queue_" + q;
      service.createQueue(queue);
      List<NewJob> jobs = new ArrayList<>();
      for (int j = 0; j < jobsPerQueue; j++) {
        jobs.add(
            NewJob.of("job " + j + " of " + queue).withPriority(1 + j % 3).withAttemptsAllowed(1));
        if (jobs.size() == 1000 || j == jobsPerQueue - 1) {
          service.enqueue(queue, jobs);
          jobs.clear();
        }
      }
      List<DequeuedJob> claimed =
          service.dequeue(DequeueParams.of(queue, Math.max(1, jobsPerQueue / 10), "bench"));
      List<AckParams.Item> failures =
          claimed.stream()
              .map(job -> new AckParams.Item(job.descriptor(), "bench failure", Duration.ZERO))
              .toList();
      service.ack(new AckParams(queue, List.of(), failures));
      if (failed == null && !claimed.isEmpty()) {
        failed = claimed.get(0).descriptor();
      }
    }
    this.failedJob = failed;
    this.server = QueueServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
  }

  String address() {
    return "127.0.0.1:" + server.port();
  }

  /** A FAILED job, for the lookup page; null without jobs. */
  JobDescriptor failedJob() {
    return failedJob;
  }

  @Override
  public void close() {
    server.close();
  }
}
