package dev.flipper.workflow.master.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Reconnecting: master restarts, a master that comes up late, one that never does, answers that get
 * lost.
 */
class TokenMasterClientTest {
  private final InMemoryTokenStore store = InMemoryTokenStore.create();
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  private TokenMasterServer startServer(int port) {
    TokenMasterServer server =
        TokenMasterServer.builder(TokenService.builder(store.sharingStorage()).build())
            .port(port)
            .bindHost("127.0.0.1")
            .build()
            .start();
    toClose.add(server);
    return server;
  }

  private TokenMasterClient client(TokenMasterClient.Builder builder) {
    TokenMasterClient client = builder.build();
    toClose.add(client);
    return client;
  }

  private static QueryAndOwnParams claimAll() {
    return new QueryAndOwnParams("w", Long.MAX_VALUE, Query.prefix("/"));
  }

  @Test
  void callsContinueOnNewConnectionsAfterTheMasterRestarts() {
    TokenMasterServer first = startServer(0);
    int port = first.port();
    TokenMasterClient client =
        client(TokenMasterClient.builder("127.0.0.1", port).checkAfterIdle(Duration.ZERO));
    Token a = client.modify(ModifyParams.updating(Token.of("/a", "1"))).get(0);

    first.close();
    startServer(port);

    assertThat(client.queryAndOwn(claimAll())).extracting(Token::name).containsExactly("/a");
    assertThat(client.query(Query.prefix("/"))).hasSize(1);
    assertThat(a.version()).isPositive();
  }

  @Test
  void aModifySentIntoAConnectionTheMasterClosedRunsAgain() {
    TokenMasterServer first = startServer(0);
    int port = first.port();
    TokenMasterClient client =
        client(TokenMasterClient.builder("127.0.0.1", port)); // no idle check this soon
    client.modify(ModifyParams.updating(Token.of("/a", "1")));

    first.close();
    startServer(port);

    assertThat(client.modify(ModifyParams.updating(Token.of("/b", "2")))).hasSize(1);
    assertThat(client.query(Query.prefix("/"))).extracting(Token::name).containsExactly("/a", "/b");
  }

  @Test
  void aMasterThatComesUpLaterIsReached() throws Exception {
    int port = freePort();
    TokenMasterClient client =
        client(
            TokenMasterClient.builder("127.0.0.1", port)
                .connectAttempts(100)
                .initialBackoff(Duration.ofMillis(20))
                .maxBackoff(Duration.ofMillis(100)));
    CompletableFuture<List<Token>> call =
        CompletableFuture.supplyAsync(
            () -> client.modify(ModifyParams.updating(Token.of("/late", "x"))));

    startServer(port);

    assertThat(call.get(30, TimeUnit.SECONDS)).extracting(Token::name).containsExactly("/late");
  }

  @Test
  void aMasterThatNeverAnswersFailsTheCallAfterTheConfiguredAttempts() throws Exception {
    TokenMasterClient client =
        client(
            TokenMasterClient.builder("127.0.0.1", freePort())
                .connectAttempts(3)
                .initialBackoff(Duration.ofMillis(5))
                .maxBackoff(Duration.ofMillis(10)));

    TokenException e =
        catchThrowableOfType(TokenException.class, () -> client.query(Query.prefix("/")));

    assertThat(e.errorCode()).isEqualTo(TokenErrorCode.UNKNOWN);
    assertThat(e.getMessage()).contains("after 3 attempt(s)").contains("nothing was changed");
  }

  @Test
  void aClaimWhoseAnswerIsLostFailsWithUnknownOutcome() throws Exception {
    try (SwallowingServer swallowing = new SwallowingServer()) {
      TokenMasterClient client =
          client(TokenMasterClient.builder("127.0.0.1", swallowing.port()).connectAttempts(1));

      TokenException claim =
          catchThrowableOfType(TokenException.class, () -> client.queryAndOwn(claimAll()));
      TokenException modify =
          catchThrowableOfType(
              TokenException.class, () -> client.modify(ModifyParams.updating(Token.of("/a", ""))));

      assertThat(claim.errorCode()).isEqualTo(TokenErrorCode.UNKNOWN);
      assertThat(claim.getMessage())
          .contains("after queryAndOwn was sent")
          .contains("outcome is unknown");
      assertThat(swallowing.connections()).isGreaterThanOrEqualTo(2); // the modify was sent twice
      assertThat(modify.getMessage()).contains("outcome is unknown");
    }
  }

  /** Reads, an archive with its run and deleting a run are all safe to send again. */
  @Test
  void runHistoryCallsWhoseAnswerIsLostAreSentOnceMore() throws Exception {
    RunArchive run =
        new RunArchive(
            new RunRecord("etl", "1", "SUCCESS", "cli", 1L, 2L, Map.of(), List.of()), List.of());
    List<Consumer<TokenMasterClient>> calls =
        List.of(
            c -> c.queryRuns(RunQuery.latest("etl", 10)),
            c -> c.queryExecutions(ExecutionQuery.ofJob("etl", "load", 10)),
            c -> c.archive(List.of(), run),
            c -> c.deleteRun("etl", "1"));
    try (SwallowingServer swallowing = new SwallowingServer()) {
      TokenMasterClient client =
          client(TokenMasterClient.builder("127.0.0.1", swallowing.port()).connectAttempts(1));

      for (Consumer<TokenMasterClient> call : calls) {
        int before = swallowing.connections();
        TokenException lost = catchThrowableOfType(TokenException.class, () -> call.accept(client));

        assertThat(lost.errorCode()).isEqualTo(TokenErrorCode.UNKNOWN);
        assertThat(lost.getMessage()).contains("was sent, so its outcome is unknown");
        assertThat(swallowing.connections() - before).as("sent twice").isEqualTo(2);
      }
    }
  }

  @Test
  void stopWaitingEndsAWaitingClaimAtOnceAndLaterClaimsDoNotWait() throws Exception {
    TokenService service = TokenService.builder(store.sharingStorage()).build();
    TokenMasterServer server =
        TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
    toClose.add(server);
    TokenMasterClient client = client(TokenMasterClient.builder("127.0.0.1", server.port()));
    QueryAndOwnParams waitLong =
        new QueryAndOwnParams("w", Long.MAX_VALUE, Query.prefix("/waiting/"))
            .withWaitTime(Duration.ofSeconds(25));
    CompletableFuture<List<Token>> waiting =
        CompletableFuture.supplyAsync(() -> client.queryAndOwn(waitLong));
    await().atMost(Duration.ofSeconds(30)).until(() -> service.waitingClaims() > 0);

    client.stopWaiting();

    assertThat(waiting.get(10, TimeUnit.SECONDS)).as("the cut claim claims nothing").isEmpty();
    long before = System.nanoTime();
    assertThat(client.queryAndOwn(waitLong)).isEmpty(); // answered at once, not after 25 s
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(20));
    client.modify(ModifyParams.updating(Token.of("/other", "x"))); // other calls still work
    assertThat(
            client.queryAndOwn(new QueryAndOwnParams("w", Long.MAX_VALUE, Query.prefix("/other"))))
        .extracting(Token::name)
        .containsExactly("/other");
  }

  @Test
  void aClosedClientRefusesCalls() {
    TokenMasterClient client =
        client(TokenMasterClient.builder("127.0.0.1", startServer(0).port()));
    client.close();

    assertThatThrownBy(() -> client.query(Query.prefix("/")))
        .isInstanceOf(TokenException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void settingsAreValidated() {
    assertThatThrownBy(() -> TokenMasterClient.builder("h", 0).build())
        .hasMessageContaining("port");
    assertThatThrownBy(() -> TokenMasterClient.builder("h", 1).connectAttempts(0).build())
        .hasMessageContaining("connectAttempts");
    assertThatThrownBy(
            () ->
                TokenMasterClient.builder("h", 1)
                    .initialBackoff(Duration.ofSeconds(5))
                    .maxBackoff(Duration.ofSeconds(1))
                    .build())
        .hasMessageContaining("maxBackoff");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** Accepts connections, reads what arrives and closes without answering. */
  private static final class SwallowingServer implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket(0);
    private final Thread thread;
    private volatile int connections;

    SwallowingServer() throws IOException {
      thread = new Thread(this::serve, "swallowing-server");
      thread.setDaemon(true);
      thread.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    int connections() {
      return connections;
    }

    private void serve() {
      while (!socket.isClosed()) {
        try (Socket accepted = socket.accept()) {
          connections++;
          InputStream in = accepted.getInputStream();
          in.read(new byte[4096]); // the request arrived; close without a word
        } catch (IOException e) {
          return;
        }
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
