package dev.flipper.token.jdbc;

import dev.flipper.queue.mysql.TestDatabases;
import dev.flipper.token.contract.TokenStoreContractTest;
import dev.flipper.token.spi.TokenStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;

/** The token storage contract over {@link JdbcTokenStore} on an embedded H2 file database. */
@Tag("slow")
class H2TokenStoreContractTest extends TokenStoreContractTest {
  private Path dir;

  @Override
  protected TokenStore openStore() {
    try {
      dir = Files.createTempDirectory("flipper-tokens-h2");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return JdbcTokenStore.open(TestDatabases.h2Tokens(dir));
  }

  @Override
  protected TokenStore openStoreOverSameStorage() {
    return JdbcTokenStore.open(TestDatabases.h2Tokens(dir));
  }

  @Override
  protected void dropStorage() {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
