package dev.flipper.examples;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The queue inside an application, with no daemon: an H2 file in MySQL mode, the same JDBC code as a
 * MariaDB deployment. How to run it: see examples/README.md.
 */
public final class EmbeddedQueueExample {
  private EmbeddedQueueExample() {}

  public static void main(String[] args) {
    Path dataDir = Path.of(args.length > 0 ? args[0] : "data/example");
    run(dataDir);
  }

  /** Enqueues three jobs, works through the due ones, and returns what lookup says about them. */
  static Map<JobDescriptor, JobInfo> run(Path dataDir) {
    String url = "jdbc:h2:file:" + dataDir.toAbsolutePath().resolve("queue") + ";MODE=MySQL;AUTO_SERVER=TRUE";
    try (JdbcQueueStore store = JdbcQueueStore.builder()
        .shards(List.of(new JdbcShardConfig("1", url, "", "", false)))
        .build()) {
      QueueService queue = QueueService.builder(store).build();
      queue.createQueue("emails");

      List<JobDescriptor> ids = queue.enqueue("emails", List.of(
          NewJob.of("welcome ada@example.com"),
          NewJob.of("password reset for bob@example.com").withPriority(1).withAttemptsAllowed(5),
          NewJob.of("weekly digest").withPriority(3).withRunAfter(Instant.now().plusSeconds(3600))));
      System.out.println("enqueued " + ids);

      // A worker loop in miniature: claim what is due, do the work, ack it.
      List<DequeuedJob> claimed = queue.dequeue(DequeueParams.of("emails", 10, "example:" + ProcessHandle.current().pid()));
      for (DequeuedJob job : claimed) {
        System.out.println("sending: " + new String(job.body(), StandardCharsets.UTF_8));
      }
      queue.ack(new AckParams("emails", claimed.stream().map(j -> AckParams.Item.of(j.descriptor())).toList(), List.of()));

      Map<JobDescriptor, JobInfo> states = queue.lookup(ids, false);
      states.forEach((id, info) -> System.out.println(id + " is " + info.state() + ", runs after " + info.runAfter()));
      return states;
    }
  }
}
