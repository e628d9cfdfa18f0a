package dev.flipper.workflow.control;

import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.engine.SettableClock;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import org.junit.jupiter.api.Tag;

/**
 * The control operations through the wire: a Thrift master on an ephemeral port, as the CLI uses
 * it.
 */
@Tag("slow")
class ThriftControlTest extends ControlContractTest {
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
