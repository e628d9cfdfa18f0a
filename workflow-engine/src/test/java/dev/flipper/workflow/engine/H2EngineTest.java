package dev.flipper.workflow.engine;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;

/** The engine on the SQL token store over an H2 file of its own. */
@Tag("slow")
class H2EngineTest extends EngineContractTest {
  private JdbcTokenStore store;

  @Override
  protected TokenMaster openMaster(SettableClock clock) {
    try {
      Path dir = Files.createTempDirectory("flipper-engine-h2");
      store = JdbcTokenStore.open(TestDatabases.h2Tokens(dir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return TokenService.builder(store).clock(clock).build();
  }

  @Override
  protected void closeMaster() {
    store.close();
  }
}
