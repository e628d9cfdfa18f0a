package dev.flipper.queue.redis;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.Jedis;

/**
 * A throw-away redis-server on a free local port, for tests that must do what would disturb the
 * shared Redis (SCRIPT FLUSH, stopping the server). Needs the redis-server binary on the PATH.
 */
final class PrivateRedis implements AutoCloseable {
  private final int port;
  private final Path directory;
  private Process process;

  PrivateRedis() {
    this.port = freePort();
    try {
      this.directory = Files.createTempDirectory("flipper-redis-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    start();
  }

  int port() {
    return port;
  }

  /** Starts the server (again) and waits until it answers PING. */
  void start() {
    ProcessBuilder builder =
        new ProcessBuilder(
                List.of(
                    "redis-server",
                    "--port",
                    Integer.toString(port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    directory.toString()))
            .redirectErrorStream(true)
            .redirectOutput(new File(directory.toFile(), "redis.log"));
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new AssertionError(
          "cannot start redis-server (needed by this test; it must be on the PATH)", e);
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .until(
            () -> {
              try (Jedis jedis = jedis()) {
                return "PONG".equals(jedis.ping());
              }
            });
  }

  /** Kills the server; its data is gone. */
  void stop() {
    if (process != null) {
      process.destroy();
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      process = null;
    }
  }

  Jedis jedis() {
    return new Jedis("127.0.0.1", port);
  }

  @Override
  public void close() {
    stop();
    try (var files = Files.walk(directory)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // A leftover temporary directory is harmless.
    }
  }

  /**
   * A port that was free a moment ago (the server binds it right after; a clash fails the start
   * loudly).
   */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
