package dev.flipper.workflow.master.acceptance;

import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.io.IOException;

/**
 * A token master as its own process, for the multi-master and kill tests: {@code MasterProcessMain
 * JDBC_URL PORT}. Prints {@code LISTENING <port>} once serving and exits when its standard input
 * closes (the test ended or died), so no master outlives its test.
 */
public final class MasterProcessMain {

  private MasterProcessMain() {}

  public static void main(String[] args) throws IOException {
    JdbcTokenStore store =
        JdbcTokenStore.open(JdbcTokenStoreConfig.of(args[0], "root", "").withPoolSize(8));
    TokenMasterServer server =
        TokenMasterServer.builder(TokenService.builder(store).build())
            .port(Integer.parseInt(args[1]))
            .bindHost("127.0.0.1")
            .build()
            .start();
    System.out.println("LISTENING " + server.port());
    System.out.flush();
    while (System.in.read() != -1) {
      // wait for the parent to close our input
    }
    server.close();
    store.close();
    System.exit(0);
  }
}
