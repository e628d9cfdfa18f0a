package dev.flipper.workflow.master.server;

import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.contract.TokenStoreContractTest;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.token.spi.TokenStore;
import dev.flipper.workflow.engine.ForwardingTokenMaster;
import dev.flipper.workflow.master.client.TokenMasterClient;
import org.junit.jupiter.api.Tag;

/**
 * The whole token contract through the wire: each master is a {@link TokenMasterServer} on an
 * ephemeral port and the tests talk to it with a {@link TokenMasterClient}, so every field and
 * error crosses Thrift both ways.
 */
@Tag("slow")
class ThriftTokenMasterContractTest extends TokenStoreContractTest {
  private InMemoryTokenStore store;

  @Override
  protected TokenStore openStore() {
    store = InMemoryTokenStore.create();
    return store;
  }

  @Override
  protected TokenStore openStoreOverSameStorage() {
    return store.sharingStorage();
  }

  @Override
  protected TokenMaster masterOver(TokenService service) {
    return new RemoteMaster(
        TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start());
  }

  /** A client and the server it talks to, closed together. */
  static final class RemoteMaster extends ForwardingTokenMaster implements AutoCloseable {
    private final TokenMasterServer server;
    private final TokenMasterClient client;

    RemoteMaster(TokenMasterServer server) {
      this(server, TokenMasterClient.builder("127.0.0.1", server.port()).build());
    }

    private RemoteMaster(TokenMasterServer server, TokenMasterClient client) {
      super(client);
      this.server = server;
      this.client = client;
    }

    @Override
    public void close() {
      client.close();
      server.close();
    }
  }
}
