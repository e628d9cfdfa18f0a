package dev.flipper.workflow.master.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The acceptance race: 3 master processes on one MariaDB, 16 client threads racing modify
 * and queryAndOwn over the same tokens (30 s; {@code -Dflipper.race.seconds=N} to change). Half the
 * threads are workers: claim a token, add one to its counter and release it with the version of
 * their claim. The others add one to the counter of tokens nobody owns, by read-modify-write. Then:
 *
 * <ul>
 *   <li>no token owned twice at once: a worker's release never conflicts (anyone writing the token
 *       between its claim and its release, a second claimer included, would have changed the
 *       version);
 *   <li>no lost update: each counter equals the increments acknowledged for it;
 *   <li>versions never reused: every acknowledged write has a distinct version, and each thread
 *       sees them rise.
 * </ul>
 */
@Tag("mariadb")
@Tag("processes")
class MultiMasterRaceTest {
  static final int MASTERS = 3;
  static final int THREADS = 16;
  static final int TOKENS = 24;
  static final String PREFIX = "/race/";

  private final TestDatabases databases = new TestDatabases();
  private MasterProcesses masters;

  @AfterEach
  void stop() {
    if (masters != null) {
      masters.close();
    }
    databases.close();
  }

  @Test
  void threeMastersSixteenThreadsNoLostUpdateNoDoubleOwnershipNoReusedVersion() throws Exception {
    masters = new MasterProcesses(databases.newMariaDb(), MASTERS);
    masters.startAll();
    List<TokenMasterClient> clients = new ArrayList<>();
    for (int m = 0; m < MASTERS; m++) {
      clients.add(TokenMasterClient.builder("127.0.0.1", masters.port(m)).build());
    }
    List<Token> seeds = new ArrayList<>();
    for (int i = 0; i < TOKENS; i++) {
      seeds.add(Token.of(PREFIX + String.format("%02d", i), "0").withPriority(i % 4));
    }
    clients.get(0).modify(new ModifyParams(seeds, List.of()));

    long seconds = Long.getLong("flipper.race.seconds", 30);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Map<String, AtomicLong> acknowledged = new ConcurrentHashMap<>();
    seeds.forEach(t -> acknowledged.put(t.name(), new AtomicLong()));
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<List<Long>>> results = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      TokenMasterClient client = clients.get(thread % MASTERS);
      results.add(
          pool.submit(
              () ->
                  thread % 2 == 0
                      ? worker(client, thread, deadline, acknowledged)
                      : modifier(client, thread, deadline, acknowledged)));
    }
    List<Long> allVersions = new ArrayList<>();
    for (Future<List<Long>> result : results) {
      List<Long> versions = result.get(seconds + 120, TimeUnit.SECONDS);
      assertThat(versions)
          .as("versions one thread saw, in call order")
          .isSorted()
          .doesNotHaveDuplicates();
      allVersions.addAll(versions);
    }
    pool.shutdown();

    List<Token> finalTokens = clients.get(1).query(Query.prefix(PREFIX));
    long totalIncrements = 0;
    for (Token token : finalTokens) {
      assertThat(Long.parseLong(token.data()))
          .as("counter of %s", token.name())
          .isEqualTo(acknowledged.get(token.name()).get());
      assertThat(token.isOwnedAt(Instant.now())).as("%s left owned", token.name()).isFalse();
      totalIncrements += acknowledged.get(token.name()).get();
    }
    Collections.sort(allVersions);
    assertThat(allVersions).doesNotHaveDuplicates();
    assertThat(totalIncrements).as("the race did some work").isGreaterThan(THREADS);
    System.out.printf(
        "race: %d s, %d increments, %d versions, %d tokens%n",
        seconds, totalIncrements, allVersions.size(), finalTokens.size());
    clients.forEach(TokenMasterClient::close);
  }

  /** Claims one token at a time, increments it and releases it with the claim's version. */
  private static List<Long> worker(
      TokenMasterClient client, int thread, long deadline, Map<String, AtomicLong> acknowledged) {
    List<Long> versions = new ArrayList<>();
    String owner = "worker-" + thread;
    while (System.nanoTime() < deadline) {
      long leaseEnd = Instant.now().getEpochSecond() + 600;
      List<Token> claimed =
          client.queryAndOwn(new QueryAndOwnParams(owner, leaseEnd, Query.top(PREFIX, 1)));
      for (Token token : claimed) {
        versions.add(token.version());
        assertThat(token.owner()).isEqualTo(owner);
        Token released;
        try {
          released =
              client
                  .modify(
                      ModifyParams.updating(
                          token
                              .withoutOwner()
                              .withData(Long.toString(Long.parseLong(token.data()) + 1))))
                  .get(0);
        } catch (TokenException e) {
          throw new AssertionError(
              "the release of "
                  + token
                  + " by "
                  + owner
                  + " failed: someone wrote the token"
                  + " while it was owned ("
                  + e.getMessage()
                  + ")",
              e);
        }
        acknowledged.get(token.name()).incrementAndGet();
        versions.add(released.version());
      }
    }
    return versions;
  }

  /** Increments tokens nobody owns, by read-modify-write with the version read. */
  private static List<Long> modifier(
      TokenMasterClient client, int thread, long deadline, Map<String, AtomicLong> acknowledged) {
    List<Long> versions = new ArrayList<>();
    for (int round = 0; System.nanoTime() < deadline; round++) {
      String name = PREFIX + String.format("%02d", (thread * 7 + round) % TOKENS);
      Token current = client.query(Query.prefix(name)).get(0);
      if (current.isOwnedAt(Instant.now().plusSeconds(1))) {
        continue; // a worker holds it
      }
      try {
        Token written =
            client
                .modify(
                    ModifyParams.updating(
                        current.withData(Long.toString(Long.parseLong(current.data()) + 1))))
                .get(0);
        acknowledged.get(name).incrementAndGet();
        versions.add(written.version());
      } catch (TokenException e) {
        assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(TokenErrorCode.VERSION_CONFLICT);
      }
    }
    return versions;
  }
}
