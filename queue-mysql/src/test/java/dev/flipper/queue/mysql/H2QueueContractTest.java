package dev.flipper.queue.mysql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;

/** The storage contract on embedded H2 files (MySQL mode, AUTO_SERVER), a fresh folder per test. */
@Tag("slow")
class H2QueueContractTest extends JdbcQueueContractTest {
  private Path dir;

  @Override
  JdbcShardConfig newShard(String name, boolean dequeueOnly) {
    try {
      if (dir == null) {
        dir = Files.createTempDirectory("flipper-h2-contract");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return TestDatabases.h2Shard(name, dir).withDequeueOnly(dequeueOnly);
  }

  @Override
  protected void dropStorage() {
    if (dir == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    dir = null;
  }
}
