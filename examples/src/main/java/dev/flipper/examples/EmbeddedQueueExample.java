package dev.flipper.examples;

import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.embedded.EmbeddedQueue;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.worker.QueueWorker;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The queue inside an application, with no daemon: an H2 file in MySQL mode, the same JDBC code as
 * a MariaDB deployment, and {@link EmbeddedQueue} running the same {@link QueueWorker} that runs
 * against a server, here on the in-process {@link QueueService}, plus the monitor. How to run it:
 * see examples/README.md.
 */
public final class EmbeddedQueueExample {
  private EmbeddedQueueExample() {}

  public static void main(String[] args) throws InterruptedException {
    Path dataDir = Path.of(args.length > 0 ? args[0] : "data/example");
    run(dataDir);
  }

  /** Enqueues three jobs, works through the due ones, and returns what lookup says about them. */
  static Map<JobDescriptor, JobInfo> run(Path dataDir) throws InterruptedException {
    String url =
        "jdbc:h2:file:"
            + dataDir.toAbsolutePath().resolve("queue")
            + ";MODE=MySQL;AUTO_SERVER=TRUE";
    JdbcQueueStore store =
        JdbcQueueStore.builder()
            .shards(List.of(new JdbcShardConfig("1", url, "", "", false)))
            .build();
    // One builder: the queue service, a worker for "emails" in this process, and the monitor (claim
    // time-outs, deletion of old finished jobs). close() stops them and closes the store.
    try (EmbeddedQueue app =
        EmbeddedQueue.builder(store)
            .worker(
                "emails",
                job -> System.out.println("sending: " + job.bodyAsString()),
                w ->
                    w.source("example:" + ProcessHandle.current().pid())
                        .pollInterval(Duration.ofMillis(50)))
            .build()
            .start()) {
      QueueService queue = app.queue();
      List<JobDescriptor> ids =
          queue.enqueue(
              "emails",
              List.of(
                  NewJob.of("welcome ada@example.com"),
                  NewJob.of("password reset for bob@example.com")
                      .withPriority(1)
                      .withAttemptsAllowed(5),
                  NewJob.of("weekly digest")
                      .withPriority(3)
                      .withRunAfter(Instant.now().plusSeconds(3600))));
      System.out.println("enqueued " + ids);

      QueueWorker worker = app.worker("emails");
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (worker.stats().jobsSucceeded() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(20); // a demo waiting for its own jobs, not a synchronisation primitive
      }
      worker.close(); // finishes and acks what is running, so lookup sees the final states

      Map<JobDescriptor, JobInfo> states = queue.lookup(ids, false);
      states.forEach(
          (id, info) ->
              System.out.println(id + " is " + info.state() + ", runs after " + info.runAfter()));
      return states;
    }
  }
}
