package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.thrift.ArchivedQueryRequest;
import dev.flipper.workflow.master.thrift.DeleteArchivedRequest;
import dev.flipper.workflow.master.thrift.ErrorCode;
import dev.flipper.workflow.master.thrift.Token;
import dev.flipper.workflow.master.thrift.TokenMasterException;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The archive methods as a plain generated client sends them (what the contract suite cannot show
 * through {@code TokenMasterClient}): unset fields take their defaults, and a half-given page
 * cursor is refused.
 */
class ArchivedOverThriftTest {
  private TokenService service;
  private TokenMasterServer server;
  private TSocket socket;
  private TokenMasterService.Client client;

  @BeforeEach
  void start() throws Exception {
    service = TokenService.builder(InMemoryTokenStore.create()).build();
    server = TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
    socket = new TSocket("127.0.0.1", server.port());
    socket.open();
    client = new TokenMasterService.Client(new TBinaryProtocol(socket));
  }

  @AfterEach
  void stop() {
    socket.close();
    server.close();
  }

  private void archive(int count) {
    List<dev.flipper.token.Token> tokens = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tokens.add(dev.flipper.token.Token.of(String.format("/a/%04d", i), "x"));
    }
    service.archive(service.modify(new ModifyParams(tokens, List.of())));
  }

  @Test
  void anUnsetMaxTokensGivesTheLargestPage() throws Exception {
    archive(TokenService.MAX_ARCHIVED_PAGE + 1);

    List<Token> first =
        client.query_archived(new ArchivedQueryRequest().setNamePrefix("/a/")).getTokens();
    Token last = first.get(first.size() - 1);
    List<Token> rest =
        client
            .query_archived(
                new ArchivedQueryRequest()
                    .setNamePrefix("/a/")
                    .setAfterName(last.getName())
                    .setAfterVersion(last.getVersion()))
            .getTokens();

    assertThat(first).hasSize(TokenService.MAX_ARCHIVED_PAGE);
    assertThat(rest).extracting(Token::getName).containsExactly("/a/1000");
  }

  @Test
  void aCursorWithoutItsVersionIsRefused() {
    TokenMasterException e =
        catchThrowableOfType(
            TokenMasterException.class,
            () ->
                client.query_archived(
                    new ArchivedQueryRequest().setNamePrefix("/a/").setAfterName("/a/0001")));

    assertThat(e.getErrorCode()).isEqualTo(ErrorCode.INPUT_ERROR);
    assertThat(e.getErrorMessage()).contains("afterName and afterVersion");
  }

  @Test
  void anUnsetPrefixIsRefusedRatherThanReadAsTheWholeArchive() {
    TokenMasterException e =
        catchThrowableOfType(
            TokenMasterException.class, () -> client.query_archived(new ArchivedQueryRequest()));

    assertThat(e.getErrorCode()).isEqualTo(ErrorCode.INPUT_ERROR);
    assertThat(e.getErrorMessage()).contains("no namePrefix");
  }

  @Test
  void deleteWithoutAPrefixIsRefusedAndDeletesNothing() throws Exception {
    archive(2);

    TokenMasterException e =
        catchThrowableOfType(
            TokenMasterException.class, () -> client.delete_archived(new DeleteArchivedRequest()));

    assertThat(e.getErrorCode()).isEqualTo(ErrorCode.INPUT_ERROR);
    assertThat(
            client.delete_archived(new DeleteArchivedRequest().setNamePrefix("/a/")).getDeleted())
        .isEqualTo(2);
  }
}
