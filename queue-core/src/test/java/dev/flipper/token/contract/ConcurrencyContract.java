package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Several masters over one storage, many threads racing over the same tokens: no lost update, no
 * token owned twice at once, no version issued twice, versions increasing in each thread's order of
 * calls.
 */
abstract class ConcurrencyContract extends TokenContractArea {
  static final int THREADS = 8;
  static final int ROUNDS = 40;

  List<TokenMaster> threeMasters() {
    return List.of(master(), fx().anotherMaster(), fx().anotherMaster());
  }

  @Test
  void racingReadModifyWriteLosesNoUpdate() throws Exception {
    List<TokenMaster> masters = threeMasters();
    int counters = 3;
    for (int c = 0; c < counters; c++) {
      insert("/counter/" + c, "0");
    }
    List<List<Long>> versionsPerThread =
        runThreads(
            thread -> {
              TokenMaster master = masters.get(thread % masters.size());
              List<Long> versions = new ArrayList<>();
              for (int round = 0; round < ROUNDS; round++) {
                String name = "/counter/" + ((thread + round) % counters);
                while (true) {
                  Token current = master.query(Query.prefix(name)).get(0);
                  try {
                    Token written =
                        master
                            .modify(
                                ModifyParams.updating(
                                    current.withData(
                                        Long.toString(Long.parseLong(current.data()) + 1))))
                            .get(0);
                    versions.add(written.version());
                    break;
                  } catch (TokenException e) {
                    assertThat(e.errorCode())
                        .as(e.getMessage())
                        .isEqualTo(TokenErrorCode.VERSION_CONFLICT);
                  }
                }
              }
              return versions;
            });

    long total = under("/counter/").stream().mapToLong(t -> Long.parseLong(t.data())).sum();
    assertThat(total).isEqualTo((long) THREADS * ROUNDS);
    assertVersionsUniqueAndIncreasingPerThread(versionsPerThread);
  }

  @Test
  void racingClaimsNeverOwnATokenTwiceAtOnce() throws Exception {
    List<TokenMaster> masters = threeMasters();
    for (int i = 0; i < 6; i++) {
      insert("/jobs/" + i, i % 3);
    }
    long leaseEnd = nowSeconds() + 3600; // the clock stands still: only a release frees a token
    List<List<Long>> versionsPerThread =
        runThreads(
            thread -> {
              TokenMaster master = masters.get(thread % masters.size());
              List<Long> versions = new ArrayList<>();
              int held = 0;
              for (int attempt = 0; held < ROUNDS / 2 && attempt < ROUNDS * 50; attempt++) {
                List<Token> claimed =
                    master.queryAndOwn(
                        new QueryAndOwnParams(
                            "worker-" + thread, leaseEnd, Query.top("/jobs/", 2)));
                claimed.forEach(token -> versions.add(token.version()));
                for (Token token : claimed) {
                  assertThat(token.owner()).isEqualTo("worker-" + thread);
                  // Had anyone claimed it meanwhile, its version would have changed and this
                  // release would conflict.
                  Token released =
                      master
                          .modify(
                              ModifyParams.updating(
                                  token.withoutOwner().withData(token.data() + " " + thread)))
                          .get(0);
                  versions.add(released.version());
                  held++;
                }
              }
              return versions;
            });

    assertVersionsUniqueAndIncreasingPerThread(versionsPerThread);
    int releases = under("/jobs/").stream().mapToInt(t -> t.data().split(" ").length - 3).sum();
    assertThat(releases).isEqualTo(versionsPerThread.stream().mapToInt(List::size).sum() / 2);
    assertThat(under("/jobs/")).allSatisfy(t -> assertThat(t.owner()).isNull());
  }

  @Test
  void claimsAndUpdatesRacingOverTheSameTokensStayConsistent() throws Exception {
    List<TokenMaster> masters = threeMasters();
    for (int i = 0; i < 4; i++) {
      insert("/mixed/" + i, "0");
    }
    long leaseEnd = nowSeconds() + 3600;
    List<List<Long>> versionsPerThread =
        runThreads(
            thread -> {
              TokenMaster master = masters.get(thread % masters.size());
              List<Long> versions = new ArrayList<>();
              for (int round = 0; round < ROUNDS; round++) {
                if (thread % 2 == 0) {
                  for (Token token :
                      master.queryAndOwn(
                          new QueryAndOwnParams(
                              "claimer-" + thread,
                              leaseEnd,
                              Query.top(
                                  "/mixed/",
                                  1)))) { // one token at most: its claim version comes before its
                    // release
                    versions.add(token.version());
                    try {
                      versions.add(
                          master
                              .modify(ModifyParams.updating(token.withoutOwner()))
                              .get(0)
                              .version());
                    } catch (
                        TokenException
                            e) { // an updater changed it after the claim: ours is stale, drop it
                      assertThat(e.errorCode()).isEqualTo(TokenErrorCode.VERSION_CONFLICT);
                    }
                  }
                } else {
                  Token current = master.query(Query.prefix("/mixed/" + (round % 4))).get(0);
                  try {
                    versions.add(
                        master
                            .modify(ModifyParams.updating(current.withPriority(round)))
                            .get(0)
                            .version());
                  } catch (TokenException e) {
                    assertThat(e.errorCode()).isEqualTo(TokenErrorCode.VERSION_CONFLICT);
                  }
                }
              }
              return versions;
            });

    assertVersionsUniqueAndIncreasingPerThread(versionsPerThread);
    assertThat(under("/mixed/")).hasSize(4);
  }

  interface ThreadBody {
    List<Long> run(int thread) throws Exception;
  }

  static List<List<Long>> runThreads(ThreadBody body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<List<Long>>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(pool.submit((Callable<List<Long>>) () -> body.run(thread)));
      }
      List<List<Long>> results = new ArrayList<>();
      for (Future<List<Long>> future : futures) {
        results.add(future.get(2, TimeUnit.MINUTES));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  static void assertVersionsUniqueAndIncreasingPerThread(List<List<Long>> versionsPerThread) {
    List<Long> all = new ArrayList<>();
    for (List<Long> versions : versionsPerThread) {
      assertThat(versions)
          .as("versions seen by one thread, in call order")
          .isSorted()
          .doesNotHaveDuplicates();
      all.addAll(versions);
    }
    Collections.sort(all);
    assertThat(all).doesNotHaveDuplicates();
  }
}
