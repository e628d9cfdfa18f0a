package dev.flipper.workflow.master.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The kill test: 3 master processes on one MariaDB under load; one is killed with SIGKILL
 * mid-load and started again. Every change a client had acknowledged is in the database afterwards,
 * unchanged, and served the same by every master, the restarted one included; versions after the
 * restart are above all before.
 *
 * <p>Each client thread owns its tokens and keeps what it knows of them: the last acknowledged
 * write, or after a call whose outcome is unknown (the master died under it), what it reads back
 * once a master answers.
 */
@Tag("mariadb")
@Tag("processes")
class MasterKillTest {
  static final int MASTERS = 3;
  static final int THREADS = 9;
  static final int TOKENS_PER_THREAD = 5;

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
  void everyAcknowledgedChangeSurvivesAKilledMaster() throws Exception {
    masters = new MasterProcesses(databases.newMariaDb(), MASTERS);
    masters.startAll();
    List<TokenMasterClient> clients = new ArrayList<>();
    for (int m = 0; m < MASTERS; m++) {
      clients.add(
          TokenMasterClient.builder("127.0.0.1", masters.port(m))
              .connectAttempts(60)
              .initialBackoff(Duration.ofMillis(100))
              .maxBackoff(Duration.ofSeconds(1))
              .build());
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong acknowledged = new AtomicLong();
    AtomicLong unknownOutcomes = new AtomicLong();
    Map<String, Token> known = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<Long>> results = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      TokenMasterClient client = clients.get(thread % MASTERS);
      results.add(
          pool.submit(() -> load(client, thread, stop, known, acknowledged, unknownOutcomes)));
    }

    await().atMost(Duration.ofMinutes(2)).until(() -> acknowledged.get() >= 300);
    masters.kill(1);
    long acknowledgedAtKill = acknowledged.get();
    await()
        .atMost(Duration.ofMinutes(2))
        .until(() -> acknowledged.get() >= acknowledgedAtKill + 200);
    long highestBeforeRestart =
        known.values().stream().mapToLong(Token::version).max().orElseThrow();
    masters.start(1);
    long acknowledgedAtRestart = acknowledged.get();
    await()
        .atMost(Duration.ofMinutes(2))
        .until(() -> acknowledged.get() >= acknowledgedAtRestart + 300);
    stop.set(true);
    long maxVersionSeen = 0;
    for (Future<Long> result : results) {
      maxVersionSeen = Math.max(maxVersionSeen, result.get(3, TimeUnit.MINUTES));
    }
    pool.shutdown();

    Map<String, Token> stored = new HashMap<>();
    clients.get(1).query(Query.prefix("/kill/")).forEach(t -> stored.put(t.name(), t));
    assertThat(stored).containsExactlyInAnyOrderEntriesOf(known);
    for (TokenMasterClient client : clients) {
      assertThat(client.query(Query.prefix("/kill/")))
          .containsExactlyInAnyOrderElementsOf(known.values());
    }
    Token afterRestart =
        clients.get(1).modify(ModifyParams.updating(Token.of("/kill/after-restart", "x"))).get(0);
    assertThat(afterRestart.version())
        .isGreaterThan(highestBeforeRestart)
        .isGreaterThan(maxVersionSeen);
    System.out.printf(
        "kill: %d acknowledged changes, %d with unknown outcome, %d tokens%n",
        acknowledged.get(), unknownOutcomes.get(), known.size());
    clients.forEach(TokenMasterClient::close);
  }

  /**
   * Inserts, updates, claims and deletes the thread's own tokens until stopped; returns the highest
   * version.
   */
  private static long load(
      TokenMasterClient client,
      int thread,
      AtomicBoolean stop,
      Map<String, Token> known,
      AtomicLong acknowledged,
      AtomicLong unknownOutcomes) {
    long highest = 0;
    for (int round = 0; !stop.get(); round++) {
      String name = "/kill/" + thread + "/" + (round % TOKENS_PER_THREAD);
      Token current = known.get(name);
      try {
        Token written = step(client, thread, round, name, current);
        if (written == null) {
          known.remove(name);
        } else {
          known.put(name, written);
          highest = Math.max(highest, written.version());
        }
        acknowledged.incrementAndGet();
      } catch (TokenException e) {
        assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(TokenErrorCode.UNKNOWN);
        unknownOutcomes.incrementAndGet();
        resync(client, name, known, stop);
      }
    }
    return highest;
  }

  /**
   * One change of the token: insert when absent, else update, claim or (every 7th round) delete it.
   */
  private static Token step(
      TokenMasterClient client, int thread, int round, String name, Token current) {
    if (current == null) {
      return client
          .modify(ModifyParams.updating(Token.of(name, "r" + round).withPriority(round % 3)))
          .get(0);
    }
    if (round % 7 == 0) {
      client.modify(ModifyParams.deleting(current));
      return null;
    }
    if (round % 3 == 0 && !current.isOwnedAt(Instant.now())) {
      List<Token> claimed =
          client.queryAndOwn(
              new QueryAndOwnParams(
                  "t" + thread, Instant.now().getEpochSecond() + 5, Query.top(name, 1)));
      return claimed.isEmpty() ? current : claimed.get(0);
    }
    return client
        .modify(ModifyParams.updating(current.withoutOwner().withData("r" + round)))
        .get(0);
  }

  /** After an unknown outcome, the truth is what a master serves once one answers. */
  private static void resync(
      TokenMasterClient client, String name, Map<String, Token> known, AtomicBoolean stop) {
    while (true) {
      try {
        List<Token> found =
            client.query(Query.prefix(name)).stream().filter(t -> t.name().equals(name)).toList();
        if (found.isEmpty()) {
          known.remove(name);
        } else {
          known.put(name, found.get(0));
        }
        return;
      } catch (TokenException e) {
        if (stop.get()) {
          throw e;
        }
      }
    }
  }
}
