package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.thrift.ErrorCode;
import dev.flipper.workflow.master.thrift.GroupRequest;
import dev.flipper.workflow.master.thrift.ModifyRequest;
import dev.flipper.workflow.master.thrift.ModifyResponse;
import dev.flipper.workflow.master.thrift.Query;
import dev.flipper.workflow.master.thrift.QueryAndOwnRequest;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.QueryResponse;
import dev.flipper.workflow.master.thrift.Token;
import dev.flipper.workflow.master.thrift.TokenMasterException;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The wire as Pinball's clients use it: unframed binary protocol, old non-strict message headers,
 * tokens inserted without a version, fields left unset where the original left them unset.
 */
class TokenMasterServerTest {
  private TokenMasterServer server;
  private TSocket socket;
  private TokenMasterService.Client pinballClient;

  @BeforeEach
  void start() throws Exception {
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .build()
            .start();
    socket = new TSocket("127.0.0.1", server.port());
    socket.open();
    // Pinball's Python client: TBufferedTransport over a socket, TBinaryProtocol without strict
    // headers.
    pinballClient = new TokenMasterService.Client(new TBinaryProtocol(socket, false, false));
  }

  @AfterEach
  void stop() {
    socket.close();
    server.close();
  }

  @Test
  void aPinballClientInsertsWithoutVersionAndReadsBack() throws Exception {
    Token sent =
        new Token().setName("/workflow/wf/1/job/waiting/a").setData("pickle").setPriority(1.5);

    ModifyResponse response = pinballClient.modify(new ModifyRequest().setUpdates(List.of(sent)));

    Token written = response.getUpdates().get(0);
    assertThat(written.isSetVersion()).isTrue();
    assertThat(written.getVersion()).isPositive();
    assertThat(written.getName()).isEqualTo(sent.getName());
    assertThat(written.isSetOwner()).isFalse();
    assertThat(written.isSetExpirationTime()).isFalse();
    QueryResponse query =
        pinballClient.query(new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/"))));
    assertThat(query.getTokens()).containsExactly(List.of(written));
  }

  @Test
  void fieldsStayUnsetWhereTheOriginalLeftThemUnset() throws Exception {
    Token written =
        pinballClient
            .modify(new ModifyRequest().setUpdates(List.of(new Token().setName("/a"))))
            .getUpdates()
            .get(0);

    assertThat(
            pinballClient
                .group(new GroupRequest().setNamePrefix("").setGroupSuffix("/"))
                .isSetCounts())
        .isFalse();
    assertThat(pinballClient.group(new GroupRequest().setNamePrefix("/")).getCounts())
        .containsEntry("/a", 1);
    assertThat(
            pinballClient.modify(new ModifyRequest().setDeletes(List.of(written))).isSetUpdates())
        .isFalse();
    assertThat(pinballClient.query(new QueryRequest()).isSetTokens()).isFalse();
    assertThat(
            pinballClient
                .query_and_own(new QueryAndOwnRequest().setOwner("w").setExpirationTime(1))
                .getTokens())
        .isEmpty();
  }

  @Test
  void errorsTravelWithTheOriginalCodesAndNameTheToken() throws Exception {
    TokenMasterException e =
        catchThrowableOfType(
            TokenMasterException.class,
            () ->
                pinballClient.modify(
                    new ModifyRequest().setDeletes(List.of(new Token().setName("/no-version")))));

    assertThat(e.getErrorCode()).isEqualTo(ErrorCode.INPUT_ERROR);
    assertThat(e.getErrorMessage()).contains("'/no-version'");
    TokenMasterException missing =
        catchThrowableOfType(
            TokenMasterException.class,
            () ->
                pinballClient.modify(
                    new ModifyRequest()
                        .setUpdates(List.of(new Token().setName("/x").setVersion(5)))));
    assertThat(missing.getErrorCode()).isEqualTo(ErrorCode.NOT_FOUND);
  }

  @Test
  void anUnknownMethodIsRefusedAndTheConnectionStaysUsable() throws Exception {
    TBinaryProtocol protocol = new TBinaryProtocol(socket);
    protocol.writeMessageBegin(new TMessage("__can__finagle__trace__v3__", TMessageType.CALL, 7));
    protocol.writeStructBegin(new TStruct("args"));
    protocol.writeFieldStop();
    protocol.writeStructEnd();
    protocol.writeMessageEnd();
    socket.flush();

    TMessage answer = protocol.readMessageBegin();
    TApplicationException refusal = TApplicationException.readFrom(protocol);
    protocol.readMessageEnd();

    assertThat(answer.type).isEqualTo(TMessageType.EXCEPTION);
    assertThat(refusal.getType()).isEqualTo(TApplicationException.UNKNOWN_METHOD);
    assertThat(
            pinballClient
                .query(new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/"))))
                .getTokens())
        .hasSize(1);
  }

  @Test
  void closeEndsIdleConnectionsWithoutWaitingForThem() {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> server.connectionCount() == 1); // accepted asynchronously

    assertTimeoutPreemptively(Duration.ofSeconds(10), server::close);

    assertThat(server.isRunning()).isFalse();
    assertThatThrownBy(() -> pinballClient.query(new QueryRequest()))
        .isInstanceOf(org.apache.thrift.TException.class);
  }

  @Test
  void aBusyPortFailsWithAMessageSayingSo() throws Exception {
    try (ServerSocket busy = new ServerSocket(0)) {
      TokenMasterServer second =
          TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
              .port(busy.getLocalPort())
              .build();

      assertThatThrownBy(second::start)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(":" + busy.getLocalPort())
          .hasMessageContaining("another master");
    }
  }

  @Test
  void settingsAreValidated() {
    TokenService service = TokenService.builder(InMemoryTokenStore.create()).build();

    assertThat(TokenMasterServer.DEFAULT_PORT).isEqualTo(9090);
    assertThatThrownBy(() -> TokenMasterServer.builder(service).port(70000).build())
        .hasMessageContaining("70000");
    assertThatThrownBy(() -> TokenMasterServer.builder(service).maxConnections(0).build())
        .hasMessageContaining("maxConnections");
  }
}
