package dev.flipper.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.token.spi.TokenStore;
import java.time.Duration;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the storage contract cannot see of waiting claims: which writes wake a waiter (counted as
 * claim attempts on the store), the limit on waits, ending waits, interruption, settings. The
 * contract's {@code WaitContract} covers the behaviour on every store and over Thrift.
 */
class TokenServiceWaitTest {
  private final CountingStore store = new CountingStore(InMemoryTokenStore.create());
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stop() throws InterruptedException {
    threads.shutdownNow();
    threads.awaitTermination(10, TimeUnit.SECONDS);
  }

  static QueryAndOwnParams claimOne(String prefix, Duration wait) {
    return new QueryAndOwnParams("w1", Long.MAX_VALUE, Query.top(prefix, 1), wait);
  }

  CompletableFuture<List<Token>> inBackground(TokenService service, QueryAndOwnParams params) {
    return CompletableFuture.supplyAsync(() -> service.queryAndOwn(params), threads);
  }

  static void awaitWaiting(TokenService service) {
    await().atMost(Duration.ofSeconds(20)).until(() -> service.waitingClaims() == 1);
  }

  @Test
  void onlyWritesOfUnownedTokensUnderThePrefixWakeAWaiter() throws Exception {
    // A re-check interval longer than the test: every further attempt comes from a wake-up.
    TokenService service =
        TokenService.builder(store).waitRecheckInterval(Duration.ofMinutes(1)).build();
    CompletableFuture<List<Token>> claim =
        inBackground(service, claimOne("/jobs/runnable/", Duration.ofSeconds(30)));
    awaitWaiting(service);

    for (int i = 0; i < 20; i++) {
      service.modify(
          ModifyParams.updating(
              Token.of("/jobs/waiting/" + i, "x"),
              Token.of("/jobs/runnable" + i, "x"),
              Token.of("/jobs/runnable/leased-" + i, "x").withOwner("other", Long.MAX_VALUE)));
    }
    Token deleted = service.modify(ModifyParams.updating(Token.of("/elsewhere", "x"))).get(0);
    service.modify(new ModifyParams(List.of(), List.of(deleted)));
    assertThat(claim).isNotDone();
    service.modify(ModifyParams.updating(Token.of("/jobs/runnable/a", "x")));

    assertThat(claim.get(20, TimeUnit.SECONDS))
        .extracting(Token::name)
        .containsExactly("/jobs/runnable/a");
    assertThat(store.claimAttempts.get())
        .as("the first attempt and the one after the matching insert")
        .isLessThanOrEqualTo(2);
  }

  @Test
  void aWaitLongerThanTheLimitIsShortenedToIt() {
    TokenService service = TokenService.builder(store).maxWaitTime(Duration.ofMillis(200)).build();

    long start = System.nanoTime();
    assertThat(service.queryAndOwn(claimOne("/jobs/", Duration.ofHours(1)))).isEmpty();

    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(200L, 5_000L);
    assertThat(service.maxWaitTime()).isEqualTo(Duration.ofMillis(200));
  }

  @Test
  void aMaxWaitTimeOfZeroAnswersAtOnce() {
    TokenService service = TokenService.builder(store).maxWaitTime(Duration.ZERO).build();

    assertThat(service.queryAndOwn(claimOne("/jobs/", Duration.ofHours(1)))).isEmpty();
    assertThat(store.claimAttempts.get()).isEqualTo(1);
  }

  @Test
  void endWaitsEndsTheWaitsInProgressButNotLaterOnes() throws Exception {
    TokenService service = TokenService.builder(store).build();
    CompletableFuture<List<Token>> claim =
        inBackground(service, claimOne("/jobs/", Duration.ofSeconds(30)));
    awaitWaiting(service);

    service.endWaits();

    assertThat(claim.get(10, TimeUnit.SECONDS)).isEmpty();
    CompletableFuture<List<Token>> later =
        inBackground(service, claimOne("/jobs/", Duration.ofSeconds(30)));
    awaitWaiting(service);
    service.modify(ModifyParams.updating(Token.of("/jobs/a", "x")));
    assertThat(later.get(10, TimeUnit.SECONDS)).hasSize(1);
  }

  @Test
  void anInterruptedWaitAnswersNothingAndKeepsTheInterrupt() throws Exception {
    TokenService service = TokenService.builder(store).build();
    CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
    Thread waiter =
        new Thread(
            () -> {
              List<Token> claimed = service.queryAndOwn(claimOne("/jobs/", Duration.ofSeconds(30)));
              interruptedAfter.complete(
                  claimed.isEmpty() && Thread.currentThread().isInterrupted());
            });
    waiter.start();
    awaitWaiting(service);

    waiter.interrupt();

    assertThat(interruptedAfter.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(service.waitingClaims()).isZero();
  }

  @Test
  void settingsAreValidatedWithTheirBounds() {
    assertThat(TokenService.builder(store).build().waitRecheckInterval())
        .isEqualTo(Duration.ofMillis(250));
    assertThat(TokenService.builder(store).build().maxWaitTime()).isEqualTo(Duration.ofSeconds(30));
    assertThatThrownBy(
            () -> TokenService.builder(store).maxWaitTime(Duration.ofSeconds(-1)).build())
        .hasMessageContaining("maxWaitTime is -1s");
    assertThatThrownBy(() -> TokenService.builder(store).maxWaitTime(Duration.ofHours(2)).build())
        .hasMessageContaining("1 hour");
    assertThatThrownBy(() -> TokenService.builder(store).waitRecheckInterval(Duration.ZERO).build())
        .hasMessageContaining("waitRecheckInterval is 0s")
        .hasMessageContaining("1 ms to 1 min");
  }

  /** Counts claim attempts that reach the store. */
  static final class CountingStore implements TokenStore {
    final AtomicInteger claimAttempts = new AtomicInteger();
    private final TokenStore delegate;

    CountingStore(TokenStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public List<Token> queryAndOwn(QueryAndOwnParams params, long nowMillis) {
      claimAttempts.incrementAndGet();
      return delegate.queryAndOwn(params, nowMillis);
    }

    @Override
    public List<Token> modify(List<Token> updates, List<Token> deletes, long nowMillis) {
      return delegate.modify(updates, deletes, nowMillis);
    }

    @Override
    public List<List<Token>> query(List<Query> queries) {
      return delegate.query(queries);
    }

    @Override
    public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
      return delegate.group(namePrefix, groupSuffix);
    }

    @Override
    public void archive(List<Token> tokens, long nowMillis) {
      delegate.archive(tokens, nowMillis);
    }

    @Override
    public List<Token> queryArchived(String namePrefix) {
      return delegate.queryArchived(namePrefix);
    }

    @Override
    public int deleteArchived(String namePrefix) {
      return delegate.deleteArchived(namePrefix);
    }

    @Override
    public void archive(List<Token> tokens, RunArchive run, long nowMillis) {
      delegate.archive(tokens, run, nowMillis);
    }

    @Override
    public RunPage queryRuns(RunQuery query) {
      return delegate.queryRuns(query);
    }

    @Override
    public ExecutionPage queryExecutions(ExecutionQuery query) {
      return delegate.queryExecutions(query);
    }

    @Override
    public int deleteRun(String workflow, String instance) {
      return delegate.deleteRun(workflow, instance);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
