package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
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
 * queryAndOwn with a wait time (a long-poll): woken at once by a matching write through the same
 * master, by the periodic re-check for writes through other masters and for expired leases, never
 * by writes elsewhere. The wait itself is real time; leases follow the fixture's clock, which the
 * tests move.
 *
 * <p>Bounds are generous for a loaded machine, and count from the moment the write returned: a
 * local wake-up must take under 200 ms (it takes a few ms), a wake-up by re-check under the
 * re-check interval plus 750 ms.
 */
abstract class WaitContract extends TokenContractArea {
  /** Longer than any test runs: a claim that returns was woken, it did not time out. */
  static final Duration LONG = Duration.ofSeconds(30);

  static final long LOCAL_WAKE_UP_MILLIS = 200;
  static final long RECHECK_WAKE_UP_MILLIS =
      TokenService.DEFAULT_WAIT_RECHECK_INTERVAL.toMillis() + 750;

  private ExecutorService threads;
  private volatile boolean stopping;

  /** A background claim and when it started and returned. */
  record Claim(List<Token> tokens, long startNanos, long endNanos) {
    long millisSince(long nanos) {
      return TimeUnit.NANOSECONDS.toMillis(endNanos - nanos);
    }
  }

  @BeforeEach
  final void startThreads() {
    threads = Executors.newCachedThreadPool();
  }

  @AfterEach
  final void stopThreads() throws InterruptedException {
    // Ends waits that a failed test left behind, without interrupting a thread inside a store call.
    stopping = true;
    fx().endWaits();
    threads.shutdown();
    assertThat(threads.awaitTermination(30, TimeUnit.SECONDS))
        .as("every waiting claim returned")
        .isTrue();
  }

  QueryAndOwnParams claimOne(String owner, String prefix, Duration wait) {
    return new QueryAndOwnParams(owner, nowSeconds() + 3600, Query.top(prefix, 1), wait);
  }

  CompletableFuture<Claim> claimInBackground(TokenMaster master, QueryAndOwnParams params) {
    return CompletableFuture.supplyAsync(
        () -> {
          long start = System.nanoTime();
          List<Token> tokens = master.queryAndOwn(params);
          return new Claim(tokens, start, System.nanoTime());
        },
        threads);
  }

  static void awaitWaiting(TokenService service, int claims) {
    await().atMost(Duration.ofSeconds(20)).until(() -> service.waitingClaims() >= claims);
  }

  static Claim result(CompletableFuture<Claim> claim) throws Exception {
    return claim.get(20, TimeUnit.SECONDS);
  }

  @Test
  void aWaitingClaimGetsAMatchingInsertWithinMilliseconds() throws Exception {
    TokenMaster master = master();
    TokenService service = fx().lastService();
    CompletableFuture<Claim> claim = claimInBackground(master, claimOne("w1", "/wait/", LONG));
    awaitWaiting(service, 1);

    insert("/wait/job", "x");
    long inserted =
        System.nanoTime(); // not before: a slow commit on a loaded machine is not the wait's fault

    Claim got = result(claim);
    assertThat(names(got.tokens())).containsExactly("/wait/job");
    assertThat(got.tokens().get(0).owner()).isEqualTo("w1");
    assertThat(got.millisSince(inserted))
        .as("ms from the insert's return to the claim's answer")
        .isLessThan(LOCAL_WAKE_UP_MILLIS);
    assertThat(service.waitingClaims()).isZero();
  }

  @Test
  void aReleasedLeaseWakesAWaiter() throws Exception {
    Token owned = insert(Token.of("/wait/job", "x").withOwner("w1", nowSeconds() + 600)).get(0);
    TokenService service = fx().lastService();
    CompletableFuture<Claim> claim = claimInBackground(master(), claimOne("w2", "/wait/", LONG));
    awaitWaiting(service, 1);

    master().modify(ModifyParams.updating(owned.withoutOwner()));
    long released = System.nanoTime();

    Claim got = result(claim);
    assertThat(got.tokens()).extracting(Token::owner).containsExactly("w2");
    assertThat(got.millisSince(released)).isLessThan(LOCAL_WAKE_UP_MILLIS);
  }

  @Test
  void writesOutsideThePrefixAndLeasedWritesDoNotSatisfyAWait() throws Exception {
    master();
    TokenService service = fx().lastService();
    Duration wait = Duration.ofMillis(600);
    CompletableFuture<Claim> claim = claimInBackground(master(), claimOne("w1", "/wait/a/", wait));
    awaitWaiting(service, 1);

    insert("/wait/b/job", "x");
    insert("/wait/a", "x"); // the prefix without its last '/' is outside it
    insert(Token.of("/wait/a/leased", "x").withOwner("other", nowSeconds() + 60));

    Claim got = result(claim);
    assertThat(got.tokens()).isEmpty();
    assertThat(got.millisSince(got.startNanos())).isGreaterThanOrEqualTo(wait.toMillis());
    assertThat(get("/wait/b/job").owner()).isNull();
    assertThat(get("/wait/a/leased").owner()).isEqualTo("other");
  }

  @Test
  void aWaitEndsEmptyAfterItsTime() {
    insert(Token.of("/wait/leased", "x").withOwner("other", nowSeconds() + 60));
    Duration wait = Duration.ofMillis(300);

    long start = System.nanoTime();
    List<Token> claimed = master().queryAndOwn(claimOne("w1", "/wait/", wait));
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(claimed).isEmpty();
    assertThat(millis).isGreaterThanOrEqualTo(wait.toMillis()).isLessThan(wait.toMillis() + 5_000);
    assertThat(get("/wait/leased").owner()).isEqualTo("other");
  }

  @Test
  void aClaimableTokenIsClaimedWithoutWaiting() {
    insert("/wait/job", "x");

    long start = System.nanoTime();
    List<Token> claimed = master().queryAndOwn(claimOne("w1", "/wait/", LONG));

    assertThat(claimed).extracting(Token::owner).containsExactly("w1");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
  }

  @Test
  void anExpiringLeaseMakesItsTokenClaimableToAWaiter() throws Exception {
    insert(Token.of("/wait/job", "x").withOwner("dead-worker", nowSeconds() + 30));
    TokenService service = fx().lastService();
    CompletableFuture<Claim> claim = claimInBackground(master(), claimOne("w2", "/wait/", LONG));
    awaitWaiting(service, 1);

    long expiry = System.nanoTime();
    clock()
        .advance(
            Duration.ofSeconds(30)); // the lease ends: nothing is written, the re-check sees it

    Claim got = result(claim);
    assertThat(got.tokens()).extracting(Token::owner).containsExactly("w2");
    assertThat(got.millisSince(expiry)).isLessThan(RECHECK_WAKE_UP_MILLIS);
  }

  @Test
  void aWaiterOnOneMasterGetsATokenInsertedThroughAnother() throws Exception {
    TokenMaster first = master();
    TokenService firstService = fx().lastService();
    TokenMaster second = fx().anotherMaster();
    CompletableFuture<Claim> claim = claimInBackground(first, claimOne("w1", "/wait/", LONG));
    awaitWaiting(firstService, 1);

    second.modify(ModifyParams.updating(Token.of("/wait/job", "x")));
    long inserted = System.nanoTime();

    Claim got = result(claim);
    assertThat(got.tokens()).extracting(Token::owner).containsExactly("w1");
    assertThat(got.millisSince(inserted))
        .as("ms until the other master's insert is claimed (re-check)")
        .isLessThan(RECHECK_WAKE_UP_MILLIS);
  }

  @Test
  @Tag("slow")
  void sixteenWaitersClaimAThousandInsertedTokensEachExactlyOnce() throws Exception {
    int waiters = 16;
    int tokens = 1000;
    int perInsert = 5;
    TokenMaster master = master();
    TokenService service = fx().lastService();
    AtomicInteger claimedSoFar = new AtomicInteger();
    List<CompletableFuture<List<String>>> claimers = new ArrayList<>();
    for (int w = 0; w < waiters; w++) {
      String owner = "w" + w;
      claimers.add(
          CompletableFuture.supplyAsync(
              () -> {
                List<String> mine = new ArrayList<>();
                while (claimedSoFar.get() < tokens && !stopping) {
                  List<Token> got =
                      master.queryAndOwn(claimOne(owner, "/pool/", Duration.ofSeconds(1)));
                  got.forEach(token -> assertThat(token.owner()).isEqualTo(owner));
                  got.forEach(token -> mine.add(token.name()));
                  claimedSoFar.addAndGet(got.size());
                }
                return mine;
              },
              threads));
    }
    awaitWaiting(service, waiters);

    List<String> inserted = new ArrayList<>();
    for (int i = 0; i < tokens; i += perInsert) {
      List<Token> batch = new ArrayList<>();
      for (int k = i; k < i + perInsert; k++) {
        batch.add(Token.of(String.format("/pool/%04d", k), "job " + k).withPriority(k % 7));
        inserted.add(batch.get(batch.size() - 1).name());
      }
      master.modify(ModifyParams.updating(batch.toArray(Token[]::new)));
    }

    List<String> claimed = new ArrayList<>();
    for (CompletableFuture<List<String>> claimer : claimers) {
      claimed.addAll(claimer.get(60, TimeUnit.SECONDS)); // none stuck
    }
    assertThat(claimed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(inserted);
    assertThat(under("/pool/")).allSatisfy(token -> assertThat(token.owner()).startsWith("w"));
    assertThat(service.waitingClaims()).isZero();
  }

  @Test
  void aWaitForAQueryThatCanMatchNothingStillWaitsInsteadOfSpinning() {
    insert("/wait/job", "x");

    long start = System.nanoTime();
    List<Token> claimed =
        master()
            .queryAndOwn(
                new QueryAndOwnParams(
                    "w1", nowSeconds() + 60, Query.top("/wait/", 0), Duration.ofMillis(200)));

    assertThat(claimed).isEmpty();
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(200);
  }

  @Test
  void aNegativeWaitIsAnInputError() {
    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> master().queryAndOwn(claimOne("w1", "/wait/", Duration.ofMillis(-1))),
        "waitTime");
  }
}
