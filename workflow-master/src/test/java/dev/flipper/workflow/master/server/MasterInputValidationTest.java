package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.workflow.master.thrift.ErrorCode;
import dev.flipper.workflow.master.thrift.ModifyRequest;
import dev.flipper.workflow.master.thrift.Query;
import dev.flipper.workflow.master.thrift.QueryAndOwnRequest;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.Token;
import dev.flipper.workflow.master.thrift.TokenMasterException;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Requests a hostile or buggy client may send get INPUT_ERROR naming the problem, never UNKNOWN or
 * a wrong answer.
 */
@Tag("mariadb")
class MasterInputValidationTest {
  private final TestDatabases databases = new TestDatabases();
  private JdbcTokenStore store;
  private TokenMasterServer server;
  private TSocket socket;
  private TokenMasterService.Client client;

  @BeforeEach
  void start() throws Exception {
    store = JdbcTokenStore.open(TestDatabases.mariaDbTokens(databases.newMariaDb()));
    server =
        TokenMasterServer.builder(TokenService.builder(store).build())
            .port(0)
            .bindHost("127.0.0.1")
            .build()
            .start();
    socket = new TSocket("127.0.0.1", server.port());
    socket.open();
    client = new TokenMasterService.Client(new TBinaryProtocol(socket));
  }

  @AfterEach
  void stop() {
    socket.close();
    server.close();
    store.close();
    databases.close();
  }

  @Test
  void aMissingRequestIsAnInputError() {
    assertInputError(() -> client.archive(null), "archive needs a request");
    assertInputError(() -> client.group(null), "group needs a request");
    assertInputError(() -> client.modify(null), "modify needs a request");
    assertInputError(() -> client.query(null), "query needs a request");
    assertInputError(() -> client.query_and_own(null), "query_and_own needs a request");
  }

  @Test
  void aQueryWithoutPrefixIsAnInputErrorNotEveryToken() throws Exception {
    client.modify(new ModifyRequest().setUpdates(List.of(new Token().setName("/a"))));

    assertInputError(
        () -> client.query(new QueryRequest().setQueries(List.of(new Query()))),
        "query 1 has no namePrefix");
    assertInputError(
        () ->
            client.query_and_own(
                new QueryAndOwnRequest()
                    .setOwner("w")
                    .setExpirationTime(10)
                    .setQuery(new Query().setMaxTokens(1))),
        "query_and_own: the query has no namePrefix");
    assertThat(
            client
                .query(new QueryRequest().setQueries(List.of(new Query().setNamePrefix(""))))
                .getTokens()
                .get(0))
        .hasSize(1);
  }

  @Test
  void aClaimWithANegativeExpirationTimeIsAnInputError() throws Exception {
    client.modify(new ModifyRequest().setUpdates(List.of(new Token().setName("/a"))));

    assertInputError(
        () ->
            client.query_and_own(
                new QueryAndOwnRequest()
                    .setOwner("w")
                    .setExpirationTime(-1)
                    .setQuery(new Query().setNamePrefix("/"))),
        "expirationTime -1");
    assertThat(
            client
                .query(new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/"))))
                .getTokens()
                .get(0)
                .get(0)
                .isSetOwner())
        .isFalse();
  }

  @Test
  void aHugeMaxTokensClaimsWhatThereIs() throws Exception {
    client.modify(
        new ModifyRequest()
            .setUpdates(List.of(new Token().setName("/a"), new Token().setName("/b"))));

    List<Token> claimed =
        client
            .query_and_own(
                new QueryAndOwnRequest()
                    .setOwner("w")
                    .setExpirationTime(Long.MAX_VALUE)
                    .setQuery(new Query().setNamePrefix("/").setMaxTokens(1 << 30)))
            .getTokens();

    assertThat(claimed).extracting(Token::getName).containsExactlyInAnyOrder("/a", "/b");
    assertThat(
            client
                .query_and_own(
                    new QueryAndOwnRequest()
                        .setOwner("w")
                        .setExpirationTime(Long.MAX_VALUE)
                        .setQuery(new Query().setNamePrefix("/").setMaxTokens(Integer.MAX_VALUE)))
                .getTokens())
        .isEmpty();
  }

  private static void assertInputError(Executable call, String messagePart) {
    TokenMasterException e = catchThrowableOfType(TokenMasterException.class, call::execute);
    assertThat((Throwable) e).as("a TokenMasterException").isNotNull();
    assertThat(e.getErrorCode() == ErrorCode.INPUT_ERROR)
        .as("INPUT_ERROR, got " + e.getErrorCode())
        .isTrue();
    assertThat(e.getErrorMessage()).contains(messagePart);
  }
}
