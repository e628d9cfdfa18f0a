package dev.flipper.workflow.control;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.workflow.engine.SettableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Tag;

/** The control operations on the SQL token store over an H2 file of its own. */
@Tag("slow")
class H2ControlTest extends ControlContractTest {
  private JdbcTokenStore store;

  @Override
  protected TokenMaster openMaster(SettableClock clock) {
    try {
      store =
          JdbcTokenStore.open(
              TestDatabases.h2Tokens(Files.createTempDirectory("flipper-control-h2")));
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
