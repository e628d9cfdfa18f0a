package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.thrift.QueryAndOwnRequest;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Waiting claims on the wire: the optional field, old clients, the client's read time-out, a server
 * that closes under waiting clients, and what happens when waiting clients hold every connection
 * thread.
 */
class ThriftWaitTest {
  private final TokenService service = TokenService.builder(InMemoryTokenStore.create()).build();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void closeAll() throws Exception {
    service.endWaits();
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
    threads.shutdown();
    assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
  }

  private TokenMasterServer start(TokenMasterServer.Builder builder) {
    TokenMasterServer server = builder.port(0).bindHost("127.0.0.1").build().start();
    toClose.add(server);
    return server;
  }

  private TokenMasterClient client(TokenMasterClient.Builder builder) {
    TokenMasterClient client = builder.build();
    toClose.add(client);
    return client;
  }

  private TokenMasterService.Client pinballClient(int port) throws Exception {
    TSocket socket = new TSocket("127.0.0.1", port);
    socket.open();
    toClose.add(socket::close);
    return new TokenMasterService.Client(new TBinaryProtocol(socket, false, false));
  }

  private static QueryAndOwnParams claimOne(String owner, Duration wait) {
    return new QueryAndOwnParams(owner, Long.MAX_VALUE, Query.top("/jobs/", 1), wait);
  }

  private void awaitWaiting(int claims) {
    await().atMost(Duration.ofSeconds(20)).until(() -> service.waitingClaims() == claims);
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  @Test
  void aPinballClientThatSendsNoWaitIsAnsweredAtOnce() throws Exception {
    TokenMasterServer server = start(TokenMasterServer.builder(service));
    TokenMasterService.Client pinball = pinballClient(server.port());

    long start = System.nanoTime();
    QueryAndOwnRequest request =
        new QueryAndOwnRequest()
            .setOwner("w")
            .setExpirationTime(Long.MAX_VALUE)
            .setQuery(new dev.flipper.workflow.master.thrift.Query().setNamePrefix("/jobs/"));

    assertThat(pinball.query_and_own(request).getTokens()).isEmpty();
    assertThat(millisSince(start))
        .isLessThan(TokenService.DEFAULT_WAIT_RECHECK_INTERVAL.toMillis());
    assertThat(service.waitingClaims()).isZero();
  }

  @Test
  void aRequestWithWaitTimeMillisWaitsForAnInsertByAnotherClient() throws Exception {
    TokenMasterServer server = start(TokenMasterServer.builder(service));
    TokenMasterService.Client raw = pinballClient(server.port());
    QueryAndOwnRequest request =
        new QueryAndOwnRequest()
            .setOwner("w")
            .setExpirationTime(Long.MAX_VALUE)
            .setQuery(
                new dev.flipper.workflow.master.thrift.Query()
                    .setNamePrefix("/jobs/")
                    .setMaxTokens(1))
            .setWaitTimeMillis(20_000);
    CompletableFuture<List<dev.flipper.workflow.master.thrift.Token>> claim =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return raw.query_and_own(request).getTokens();
              } catch (org.apache.thrift.TException e) {
                throw new IllegalStateException(e);
              }
            },
            threads);
    awaitWaiting(1);

    client(TokenMasterClient.builder("127.0.0.1", server.port()))
        .modify(ModifyParams.updating(Token.of("/jobs/a", "x")));

    assertThat(claim.get(10, TimeUnit.SECONDS))
        .extracting(t -> t.getName())
        .containsExactly("/jobs/a");
  }

  @Test
  void theClientReadsAnAnswerThatWaitsLongerThanItsSocketTimeout() {
    TokenMasterServer server = start(TokenMasterServer.builder(service));
    TokenMasterClient client =
        client(
            TokenMasterClient.builder("127.0.0.1", server.port())
                .socketTimeout(Duration.ofMillis(100)));

    long start = System.nanoTime();
    assertThat(client.queryAndOwn(claimOne("w", Duration.ofMillis(600)))).isEmpty();

    assertThat(millisSince(start)).isGreaterThanOrEqualTo(600);
    assertThat(client.query(Query.prefix("/")))
        .isEmpty(); // the same pooled connection, back to 100 ms
  }

  @Test
  void closingTheServerAnswersWaitingClientsWithNothingInsteadOfBreakingTheirConnections()
      throws Exception {
    TokenMasterServer server =
        start(TokenMasterServer.builder(service).shutdownGracePeriod(Duration.ofSeconds(20)));
    TokenMasterClient client = client(TokenMasterClient.builder("127.0.0.1", server.port()));
    List<CompletableFuture<List<Token>>> claims = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String owner = "w" + i;
      claims.add(
          CompletableFuture.supplyAsync(
              () -> client.queryAndOwn(claimOne(owner, Duration.ofSeconds(25))), threads));
    }
    awaitWaiting(3);

    long start = System.nanoTime();
    server.close();

    assertThat(millisSince(start)).as("close() did not wait for the waits").isLessThan(5_000);
    for (CompletableFuture<List<Token>> claim : claims) {
      assertThat(claim.get(10, TimeUnit.SECONDS)).isEmpty();
    }
  }

  @Test
  void waitingClientsHoldTheirConnectionThreadsAndACallBeyondMaxConnectionsFailsAtOnce()
      throws Exception {
    TokenMasterServer server = start(TokenMasterServer.builder(service).maxConnections(2));
    TokenMasterClient waiting = client(TokenMasterClient.builder("127.0.0.1", server.port()));
    List<CompletableFuture<List<Token>>> claims = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      String owner = "w" + i;
      claims.add(
          CompletableFuture.supplyAsync(
              () -> waiting.queryAndOwn(claimOne(owner, Duration.ofSeconds(25))), threads));
    }
    awaitWaiting(2);
    TokenMasterClient third = client(TokenMasterClient.builder("127.0.0.1", server.port()));

    long start = System.nanoTime();
    TokenException refused =
        catchThrowableOfType(TokenException.class, () -> third.query(Query.prefix("/")));

    assertThat(refused.errorCode()).isEqualTo(TokenErrorCode.UNKNOWN);
    assertThat(millisSince(start)).isLessThan(5_000);

    service.modify(ModifyParams.updating(Token.of("/jobs/a", "x"), Token.of("/jobs/b", "x")));
    for (CompletableFuture<List<Token>> claim : claims) {
      assertThat(claim.get(10, TimeUnit.SECONDS)).hasSize(1);
    }
    // Idle pooled connections hold their server threads too: only closing them frees the threads.
    waiting.close();
    await().atMost(Duration.ofSeconds(20)).until(() -> server.connectionCount() == 0);
    assertThat(third.query(Query.prefix("/jobs/"))).hasSize(2);
  }
}
