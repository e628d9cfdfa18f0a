package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.thrift.Query;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A few bytes declaring a huge string or list must not make the master allocate it: a length above
 * the message limit is rejected at once (a PROTOCOL_ERROR answer or a closed connection), before
 * the server waits for (or allocates) the declared bytes.
 */
class MessageLimitsTest {
  private static final int LIMIT = 64 * 1024;
  private TokenMasterServer server;

  @BeforeEach
  void start() {
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .maxMessageBytes(LIMIT)
            .build()
            .start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aStringLongerThanTheMessageLimitIsRejectedAtOnce() throws Exception {
    // query(QueryRequest{1: list<Query>[1]{ Query{1: namePrefix = <95 MB declared, 4 bytes sent>}
    // }})
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = queryListOf(bytes, 1);
    out.writeByte(TType.STRING);
    out.writeShort(1);
    out.writeInt(95_000_000);
    out.writeBytes("/abc");

    assertThat(rejectedWithoutWaitingForTheRest(bytes.toByteArray())).isTrue();
    assertThat(aNormalQuerySucceeds()).isTrue();
  }

  @Test
  void aListLongerThanTheLimitIsRejectedAtOnce() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    queryListOf(bytes, 20_000_000); // under libthrift's default 100 MB message size

    assertThat(rejectedWithoutWaitingForTheRest(bytes.toByteArray())).isTrue();
    assertThat(aNormalQuerySucceeds()).isTrue();
  }

  @Test
  void aStringUpToTheLimitIsServed() throws Exception {
    String prefix = "/" + "p".repeat(LIMIT - 200);
    try (TSocket socket = new TSocket("127.0.0.1", server.port())) {
      socket.open();
      TokenMasterService.Client client = new TokenMasterService.Client(new TBinaryProtocol(socket));
      assertThat(
              client
                  .query(new QueryRequest().setQueries(List.of(new Query().setNamePrefix(prefix))))
                  .getTokens())
          .containsExactly(List.of());
    }
  }

  /** The start of a query call up to its list of queries, declared {@code size} long. */
  private static DataOutputStream queryListOf(ByteArrayOutputStream bytes, int size)
      throws IOException {
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(0x80010001); // strict header, CALL
    out.writeInt("query".length());
    out.writeBytes("query");
    out.writeInt(1); // seqid
    out.writeByte(TType.STRUCT); // args field 1: the request
    out.writeShort(1);
    out.writeByte(TType.LIST); // request field 1: queries
    out.writeShort(1);
    out.writeByte(TType.STRUCT);
    out.writeInt(size);
    return out;
  }

  /**
   * Sends the start of a message and keeps the connection open: true if the server answers or
   * closes within 10 s, false if it still waits for the declared bytes.
   */
  private boolean rejectedWithoutWaitingForTheRest(byte[] start) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(start);
      socket.getOutputStream().flush();
      try {
        socket.getInputStream().read();
        return true;
      } catch (SocketTimeoutException e) {
        return false; // still waiting for the declared bytes
      } catch (IOException e) {
        return true; // reset
      }
    }
  }

  private boolean aNormalQuerySucceeds() throws Exception {
    try (TSocket socket = new TSocket("127.0.0.1", server.port())) {
      socket.open();
      TokenMasterService.Client client = new TokenMasterService.Client(new TBinaryProtocol(socket));
      return client
              .query(new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/"))))
              .getTokens()
              .size()
          == 1;
    }
  }
}
