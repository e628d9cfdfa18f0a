package dev.flipper.bench;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.client.QueueClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One worker process of {@code flipper bench faults}, started (and SIGKILLed) by {@link
 * FaultBenchmark}: it dequeues through the public client, records every run before its ack and
 * every confirmed ack after it, in its own file, fsync'd per batch, so the harness can count lost
 * and duplicate runs whatever was killed. Lines: {@code R <epochMillis> <jobNumber> <descriptor>}
 * and {@code A <epochMillis> <descriptor>}.
 *
 * <p>Arguments: host port queue batch recordFile.
 */
public final class FaultWorker {
  private FaultWorker() {}

  public static void main(String[] args) throws Exception {
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    String queue = args[2];
    int batch = Integer.parseInt(args[3]);
    Path file = Path.of(args[4]);
    try (FileChannel out =
            FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        QueueClient client =
            QueueClient.builder()
                .server(host, port)
                .source("fault-worker")
                .connectTimeout(Duration.ofSeconds(2))
                .requestTimeout(Duration.ofSeconds(5))
                .maxAttempts(1)
                .build()) {
      while (true) {
        List<DequeuedJob> jobs;
        try {
          jobs = client.dequeue(queue, batch);
        } catch (RuntimeException e) {
          Thread.sleep(50); // server or store down: try again, as a real worker does
          continue;
        }
        if (jobs.isEmpty()) {
          Thread.sleep(20);
          continue;
        }
        StringBuilder runs = new StringBuilder();
        List<AckParams.Item> acks = new ArrayList<>(jobs.size());
        for (DequeuedJob job : jobs) {
          // The no-op handler: the run is its record.
          runs.append("R ")
              .append(System.currentTimeMillis())
              .append(' ')
              .append(new String(job.body(), StandardCharsets.UTF_8))
              .append(' ')
              .append(job.descriptor())
              .append('\n');
          acks.add(AckParams.Item.of(job.descriptor()));
        }
        write(out, runs);
        ackUntilConfirmed(client, new AckParams(queue, acks, List.of()));
        StringBuilder confirmed = new StringBuilder();
        long now = System.currentTimeMillis();
        for (AckParams.Item item : acks) {
          confirmed.append("A ").append(now).append(' ').append(item.job()).append('\n');
        }
        write(out, confirmed);
      }
    }
  }

  /**
   * Retries an ack through server and store restarts for a while: a lost ack means the job runs
   * again.
   */
  private static void ackUntilConfirmed(QueueClient client, AckParams ack)
      throws InterruptedException {
    long giveUp = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try {
        client.ack(ack);
        return;
      } catch (RuntimeException e) {
        if (System.nanoTime() > giveUp) {
          return; // the claim has timed out long ago; the job is run again, counted as a duplicate
        }
        Thread.sleep(50);
      }
    }
  }

  private static void write(FileChannel out, CharSequence text) throws IOException {
    ByteBuffer buffer = StandardCharsets.UTF_8.encode(text.toString());
    while (buffer.hasRemaining()) {
      out.write(buffer);
    }
    out.force(false);
  }
}
