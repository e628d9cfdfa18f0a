package dev.flipper.workflow.engine;

import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import org.junit.jupiter.api.Tag;

/** The engine through the wire: a Thrift master on an ephemeral port, as remote workers use it. */
@Tag("slow")
class ThriftEngineTest extends EngineContractTest {
  private TokenMasterServer server;
  private TokenMasterClient client;

  @Override
  protected TokenMaster openMaster(SettableClock clock) {
    TokenService service = TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
    server = TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
    client = TokenMasterClient.builder("127.0.0.1", server.port()).build();
    return client;
  }

  @Override
  protected void closeMaster() {
    client.close();
    server.close();
  }
}
