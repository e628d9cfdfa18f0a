package dev.flipper.queue.server;

import dev.flipper.queue.mysql.JdbcShardConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;

/** The queue contract through Thrift on embedded H2 files (MySQL mode), a fresh folder per test. */
@Tag("slow")
class ThriftH2ContractTest extends ThriftJdbcContractTest {
  private Path dir;

  @Override
  JdbcShardConfig newShard(String name) {
    try {
      if (dir == null) {
        dir = Files.createTempDirectory("flipper-h2-thrift-contract");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return JdbcShardConfig.embedded(name, dir.resolve("shard_" + name));
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
