package dev.flipper.bench;

import dev.flipper.queue.JobState;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.ShardStore;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench filters}: body-filtered count and scan of one queue with N pending jobs that
 * share one run-after (as jobs enqueued together do), for several N: shows whether the cost grows
 * linearly with the jobs read. Prints seconds per call.
 *
 * <p>It WRITES DATA, only to a database it creates (see {@link BenchDatabase}; by default a new H2
 * file in the temporary folder) and deletes at the end. Not a test. Not thread-safe; one run per
 * instance.
 */
@Command(
    name = "filters",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Times body-filtered count and scan over queues of several sizes on a database.",
      "WRITES DATA, only to a database it creates (a new H2 file for jdbc:h2:) and drops at the end; a "
          + "database or file that exists is refused."
    })
public final class FilterBenchmark implements Callable<Integer> {
  private static final int INSERT_BATCH = 1000;
  private static final int SCAN_LIMIT = 10_000; // the API's largest scan page

  @Spec CommandSpec spec;

  @Mixin NewDatabaseOptions db;

  @Option(
      names = "--jobs",
      split = ",",
      defaultValue = "10000,40000,100000",
      paramLabel = "N",
      description = "Queue sizes, one queue each. Default: ${DEFAULT-VALUE}")
  List<Integer> sizes;

  @Option(
      names = "--match-every",
      defaultValue = "10",
      paramLabel = "K",
      description = "One job in K matches the filter. Default: ${DEFAULT-VALUE}")
  int matchEvery;

  @Override
  public Integer call() throws Exception {
    for (int size : sizes) {
      atLeast("--jobs", size, 1);
    }
    atLeast("--match-every", matchEvery, 1);
    PrintWriter out = spec.commandLine().getOut();
    try (BenchDatabase database = db.create(spec)) {
      out.printf(
          Locale.ROOT,
          "filter benchmark: %s; filter 'red', 1 job in %d matches%n",
          database.describe(),
          matchEvery);
      out.printf(
          Locale.ROOT,
          "%10s %10s %10s %12s %10s%n",
          "jobs",
          "matching",
          "count s",
          "scanned",
          "scan s");
      out.flush();
      JdbcShardConfig shard = new JdbcShardConfig("1", database.url(), db.user, db.password, false);
      try (JdbcQueueStore store =
          JdbcQueueStore.builder().shards(List.of(shard)).poolSize(2).build()) {
        ShardStore jobs = store.shards().get(0);
        for (int i = 0; i < sizes.size(); i++) {
          out.println(measure(jobs, "filters_" + i, sizes.get(i)));
          out.flush();
        }
      }
    }
    return 0;
  }

  private String measure(ShardStore shard, String queue, int size) {
    shard.createQueue(queue);
    long now = System.currentTimeMillis();
    for (int from = 0; from < size; from += INSERT_BATCH) {
      List<NewJobRecord> batch = new ArrayList<>();
      for (int i = from; i < Math.min(size, from + INSERT_BATCH); i++) {
        String body = "job " + i + (i % matchEvery == 0 ? " red" : " blue");
        batch.add(
            new NewJobRecord(
                1, body.getBytes(StandardCharsets.UTF_8), now - 1000, 1, "", now - 1000));
      }
      shard.enqueue(queue, batch);
    }
    long start = System.nanoTime();
    int count =
        shard.count(
            queue, 1, JobState.PENDING, false, BodyFilter.of("red"), now, Integer.MAX_VALUE);
    long counted = System.nanoTime();
    int scanned =
        shard
            .scan(
                queue,
                1,
                JobState.PENDING,
                false,
                BodyFilter.of("red"),
                now,
                ScanBound.START,
                SCAN_LIMIT)
            .size();
    long done = System.nanoTime();
    return String.format(
        Locale.ROOT,
        "%10d %10d %10.2f %12d %10.2f",
        size,
        count,
        (counted - start) / 1e9,
        scanned,
        (done - counted) / 1e9);
  }

  private void atLeast(String option, int value, int minimum) {
    if (value < minimum) {
      throw new ParameterException(
          spec.commandLine(), option + " must be at least " + minimum + ", was " + value);
    }
  }
}
