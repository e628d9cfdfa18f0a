package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two masters (two services, stores and Thrift servers) over one MariaDB database, clients on each:
 * a master learns of the other's writes only by re-reading the database every re-check interval
 * (250 ms), so waiters on it get those tokens that late at most, and still each token exactly once.
 */
@Tag("mariadb")
class MultiMasterWaitTest {
  private final TestDatabases databases = new TestDatabases();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<TokenService> services = new ArrayList<>();
  private final List<TokenMasterClient> clients = new ArrayList<>();
  private volatile boolean stopping;

  @BeforeEach
  void startTwoMasters() {
    String url = databases.newMariaDb();
    for (int i = 0; i < 2; i++) {
      JdbcTokenStore store = JdbcTokenStore.open(TestDatabases.mariaDbTokens(url));
      toClose.add(store);
      TokenService service = TokenService.builder(store).build();
      services.add(service);
      TokenMasterServer server =
          TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
      toClose.add(server);
      TokenMasterClient client = TokenMasterClient.builder("127.0.0.1", server.port()).build();
      toClose.add(client);
      clients.add(client);
    }
  }

  @AfterEach
  void closeAll() throws Exception {
    stopping = true;
    services.forEach(TokenService::endWaits);
    threads.shutdown();
    boolean ended = threads.awaitTermination(30, TimeUnit.SECONDS);
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
    databases.close();
    assertThat(ended).as("every waiting claim returned").isTrue();
  }

  private static QueryAndOwnParams claimOne(String owner, Duration wait) {
    return new QueryAndOwnParams(owner, Long.MAX_VALUE, Query.top("/pool/", 1), wait);
  }

  @Test
  void aWaiterOnOneMasterGetsATokenInsertedThroughTheOtherWithinTheRecheckInterval()
      throws Exception {
    List<Long> millis = new ArrayList<>();
    for (int round = 0; round < 10; round++) {
      CompletableFuture<Long> claimed =
          CompletableFuture.supplyAsync(
              () -> {
                assertThat(clients.get(0).queryAndOwn(claimOne("w", Duration.ofSeconds(20))))
                    .hasSize(1);
                return System.nanoTime();
              },
              threads);
      await()
          .pollInterval(Duration.ofMillis(1))
          .atMost(Duration.ofSeconds(20))
          .until(() -> services.get(0).waitingClaims() == 1);

      long start = System.nanoTime();
      clients.get(1).modify(ModifyParams.updating(Token.of("/pool/" + round, "x")));
      millis.add(TimeUnit.NANOSECONDS.toMillis(claimed.get(20, TimeUnit.SECONDS) - start));
    }

    System.out.println("wake-up through the other master (MariaDB, Thrift), ms: " + millis);
    long bound =
        TokenService.DEFAULT_WAIT_RECHECK_INTERVAL.toMillis()
            + 750; // the interval, plus a loaded machine
    assertThat(millis).allSatisfy(ms -> assertThat(ms).isLessThan(bound));
  }

  @Test
  void sixteenWaitersOnTwoMastersClaimAThousandTokensEachExactlyOnce() throws Exception {
    int waiters = 16;
    int tokens = 1000;
    int perInsert = 5;
    AtomicInteger claimedSoFar = new AtomicInteger();
    List<CompletableFuture<List<String>>> claimers = new ArrayList<>();
    for (int w = 0; w < waiters; w++) {
      String owner = "w" + w;
      TokenMasterClient client = clients.get(w % 2);
      claimers.add(
          CompletableFuture.supplyAsync(
              () -> {
                List<String> mine = new ArrayList<>();
                while (claimedSoFar.get() < tokens && !stopping) {
                  for (Token token : client.queryAndOwn(claimOne(owner, Duration.ofSeconds(1)))) {
                    assertThat(token.owner()).isEqualTo(owner);
                    mine.add(token.name());
                    claimedSoFar.incrementAndGet();
                  }
                }
                return mine;
              },
              threads));
    }
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> services.get(0).waitingClaims() + services.get(1).waitingClaims() == waiters);

    long start = System.nanoTime();
    List<String> inserted = new ArrayList<>();
    for (int i = 0; i < tokens; i += perInsert) {
      List<Token> batch = new ArrayList<>();
      for (int k = i; k < i + perInsert; k++) {
        batch.add(Token.of(String.format("/pool/%04d", k), "job " + k));
        inserted.add(batch.get(batch.size() - 1).name());
      }
      clients.get((i / perInsert) % 2).modify(ModifyParams.updating(batch.toArray(Token[]::new)));
    }

    List<String> claimed = new ArrayList<>();
    for (CompletableFuture<List<String>> claimer : claimers) {
      claimed.addAll(claimer.get(120, TimeUnit.SECONDS)); // none stuck
    }
    System.out.printf(
        "16 waiters on 2 masters claimed %d tokens in %d ms%n",
        claimed.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    assertThat(claimed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(inserted);
    assertThat(clients.get(0).query(Query.prefix("/pool/")))
        .allSatisfy(token -> assertThat(token.owner()).startsWith("w"));
  }
}
