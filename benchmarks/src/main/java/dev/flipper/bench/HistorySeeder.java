package dev.flipper.bench;

import dev.flipper.token.TokenMaster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Records {@link ArchivedRuns} in a master's run history through its public API, as the archiver
 * does: one {@link TokenMaster#archive(List, dev.flipper.history.RunArchive)} per run, with no
 * tokens (the runs were never active here), from several threads so that the database's commits
 * overlap. Thread-safe; each call uses its own threads.
 */
final class HistorySeeder {
  private HistorySeeder() {}

  /** Records every run; returns when all are recorded, or throws the first failure. */
  static void seed(TokenMaster master, ArchivedRuns runs, int threads) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = first; i < runs.count() && !Thread.interrupted(); i += threads) {
                    master.archive(List.of(), runs.run(i));
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
