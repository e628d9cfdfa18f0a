package dev.flipper.examples;

import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.ThriftJobQueue;
import dev.flipper.queue.worker.JobHandler;
import dev.flipper.queue.worker.QueueWorker;
import dev.flipper.queue.worker.RetryPolicy;
import dev.flipper.queue.worker.WorkerJob;
import dev.flipper.queue.worker.WorkerStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * A worker against a running queue server (for example {@code ./flipper demo}): enqueues sentences,
 * counts their words in a {@link QueueWorker} on a {@link ThriftJobQueue}, and shows retries —
 * every third job fails on its first attempt and succeeds when retried. Run with {@code host port}
 * arguments (default 127.0.0.1 9010). The same worker runs in-process on a {@code QueueService}:
 * see {@link EmbeddedQueueExample}.
 */
public final class WordCountWorkerExample {
  private WordCountWorkerExample() {}

  public static void main(String[] args) throws InterruptedException {
    String host = args.length > 0 ? args[0] : "127.0.0.1";
    int port = args.length > 1 ? Integer.parseInt(args[1]) : 9010;
    Map<String, Integer> counts = run(host, port, 30);
    System.out.println("word counts: " + counts);
  }

  /** A job: count the words of the body. Thread-safe, as the worker runs several at once. */
  static final class WordCountJob implements JobHandler {
    final Map<String, Integer> counts = new ConcurrentHashMap<>();
    final AtomicInteger firstAttemptFailures = new AtomicInteger();

    @Override
    public void handle(WorkerJob job) {
      String sentence = job.bodyAsString();
      if (sentence.hashCode() % 3 == 0 && job.attempt() == 1) {
        firstAttemptFailures.incrementAndGet();
        throw new IllegalStateException("simulated failure of '" + sentence + "'");
      }
      counts.put(sentence, sentence.split("\\s+").length);
    }

    @Override
    public RetryPolicy retryPolicy() {
      return RetryPolicy.fixed(Duration.ofMillis(200));
    }
  }

  /** Enqueues {@code jobs} sentences and returns the word count of each once every job has run. */
  static Map<String, Integer> run(String host, int port, int jobs) throws InterruptedException {
    try (ThriftJobQueue queue =
        ThriftJobQueue.over(QueueClient.builder().server(host, port).build())) {
      queue.createQueue("wordcount");
      List<NewJob> sentences =
          IntStream.range(0, jobs)
              .mapToObj(
                  i ->
                      NewJob.of("sentence number " + i + " has " + "some ".repeat(i % 5) + "words")
                          .withAttemptsAllowed(3))
              .toList();
      queue.enqueue("wordcount", sentences);

      WordCountJob job = new WordCountJob();
      QueueWorker worker =
          QueueWorker.builder(queue, "wordcount", job)
              .source("wordcount-example")
              .concurrency(4)
              .batchSize(10)
              .pollInterval(Duration.ofMillis(50))
              .build()
              .start();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (job.counts.size() < jobs && System.nanoTime() < deadline) {
        Thread.sleep(50); // a demo waiting for its own jobs, not a synchronisation primitive
      }
      worker.close(); // stops dequeuing, finishes and acks what is running
      WorkerStats stats = worker.stats();
      System.out.printf(
          "processed %d jobs, %d failed first attempts retried, %d acks delivered%n",
          job.counts.size(), job.firstAttemptFailures.get(), stats.acksDelivered());
      return Map.copyOf(job.counts);
    }
  }
}
