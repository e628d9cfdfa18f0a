package dev.flipper.workflow.master.server;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.contract.TokenStoreContractTest;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.token.spi.TokenStore;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.util.List;
import java.util.SortedMap;

/**
 * The whole token contract through the wire: each master is a {@link TokenMasterServer} on an ephemeral port and
 * the tests talk to it with a {@link TokenMasterClient}, so every field and error crosses Thrift both ways.
 */
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
    return new RemoteMaster(TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start());
  }

  /** A client and the server it talks to, closed together. */
  static final class RemoteMaster implements TokenMaster, AutoCloseable {
    private final TokenMasterServer server;
    private final TokenMasterClient client;

    RemoteMaster(TokenMasterServer server) {
      this.server = server;
      this.client = TokenMasterClient.builder("127.0.0.1", server.port()).build();
    }

    @Override
    public List<Token> modify(ModifyParams params) {
      return client.modify(params);
    }

    @Override
    public List<List<Token>> query(List<Query> queries) {
      return client.query(queries);
    }

    @Override
    public List<Token> queryAndOwn(QueryAndOwnParams params) {
      return client.queryAndOwn(params);
    }

    @Override
    public SortedMap<String, Integer> group(String namePrefix, String groupSuffix) {
      return client.group(namePrefix, groupSuffix);
    }

    @Override
    public void archive(List<Token> tokens) {
      client.archive(tokens);
    }

    @Override
    public List<Token> queryArchived(String namePrefix, Token after, int maxTokens) {
      return client.queryArchived(namePrefix, after, maxTokens);
    }

    @Override
    public int deleteArchived(String namePrefix) {
      return client.deleteArchived(namePrefix);
    }

    @Override
    public void close() {
      client.close();
      server.close();
    }
  }
}
