package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunQuery;
import dev.flipper.token.Query;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.util.List;
import java.util.Set;
import org.apache.thrift.ProcessFunction;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TSimpleServer;
import org.apache.thrift.transport.TServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flipper's client against a master without the archive and run history methods, as Pinball's is:
 * those calls fail with UNKNOWN saying the master rejected them, and the other calls go on working
 * over the same client.
 */
class MasterWithoutArchiveTest {
  private static final Set<String> FLIPPER_ONLY =
      Set.of("query_archived", "delete_archived", "query_runs", "query_executions", "delete_run");

  private TServer server;
  private Thread serving;
  private TokenMasterClient client;

  @BeforeEach
  void start() throws Exception {
    TokenMasterHandler handler =
        new TokenMasterHandler(TokenService.builder(InMemoryTokenStore.create()).build());
    TServerSocket socket = new TServerSocket(new java.net.InetSocketAddress("127.0.0.1", 0));
    server = new TSimpleServer(new TServer.Args(socket).processor(withoutArchive(handler)));
    serving = new Thread(server::serve, "pinball-like-master");
    serving.start();
    client =
        TokenMasterClient.builder("127.0.0.1", socket.getServerSocket().getLocalPort()).build();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.stop();
    serving.join();
  }

  /**
   * The generated processor minus Flipper's archive methods: they get UNKNOWN_METHOD, as from
   * Pinball.
   */
  private static TProcessor withoutArchive(TokenMasterHandler handler) {
    var methods = new TokenMasterService.Processor<>(handler).getProcessMapView();
    return new TProcessor() {
      @Override
      @SuppressWarnings({"unchecked", "rawtypes"})
      public void process(TProtocol in, TProtocol out) throws TException {
        TMessage message = in.readMessageBegin();
        ProcessFunction function = methods.get(message.name);
        if (function != null && !FLIPPER_ONLY.contains(message.name)) {
          function.process(message.seqid, in, out, handler);
          return;
        }
        TProtocolUtil.skip(in, TType.STRUCT);
        in.readMessageEnd();
        out.writeMessageBegin(new TMessage(message.name, TMessageType.EXCEPTION, message.seqid));
        new TApplicationException(
                TApplicationException.UNKNOWN_METHOD, "Invalid method name: '" + message.name + "'")
            .write(out);
        out.writeMessageEnd();
        out.getTransport().flush();
      }
    };
  }

  @Test
  void theArchiveCallsFailWithUnknownAndTheRestWorks() {
    TokenException query =
        catchThrowableOfType(TokenException.class, () -> client.queryArchived("/", null, 10));
    TokenException delete =
        catchThrowableOfType(TokenException.class, () -> client.deleteArchived("/a"));

    assertThat(query.errorCode()).isEqualTo(TokenErrorCode.UNKNOWN);
    assertThat(query.getMessage()).contains("rejected queryArchived", "Invalid method name");
    assertThat(delete.errorCode()).isEqualTo(TokenErrorCode.UNKNOWN);
    assertThat(client.query(Query.prefix("/"))).isEmpty();
  }

  @Test
  void theRunHistoryCallsFailWithUnknownAndTheRestWorks() {
    TokenException runs =
        catchThrowableOfType(
            TokenException.class, () -> client.queryRuns(RunQuery.latest("etl", 10)));
    TokenException executions =
        catchThrowableOfType(
            TokenException.class,
            () -> client.queryExecutions(ExecutionQuery.ofJob("etl", "load", 10)));
    TokenException delete =
        catchThrowableOfType(TokenException.class, () -> client.deleteRun("etl", "1"));

    assertThat(List.of(runs, executions, delete))
        .extracting(TokenException::errorCode)
        .containsOnly(TokenErrorCode.UNKNOWN);
    assertThat(runs.getMessage()).contains("rejected queryRuns", "Invalid method name");
    assertThat(executions.getMessage()).contains("rejected queryExecutions");
    assertThat(delete.getMessage()).contains("rejected deleteRun");
    assertThat(client.query(Query.prefix("/"))).isEmpty();
  }
}
