package dev.flipper.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB or Redis server of the fault harness's own: a child process on a spare loopback port
 * with its data under a temporary folder, never the shared instances. It can be restarted on the
 * same port and data.
 */
abstract class LocalStore implements AutoCloseable {
  final Path dir;
  final int port;
  private Process process;

  LocalStore(Path dir) throws IOException {
    this.dir = dir;
    this.port = sparePort();
    Files.createDirectories(dir);
  }

  /** The {@code storage:} section of the queue server's YAML config. */
  abstract String storageYaml();

  abstract String name();

  abstract List<String> command();

  void init() throws IOException, InterruptedException {}

  final void start() throws IOException, InterruptedException {
    process =
        new ProcessBuilder(command())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name() + ".out").toFile()))
            .start();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!accepts(port)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            name() + " did not start on port " + port + "; see " + dir.resolve(name() + ".out"));
      }
      Thread.sleep(50);
    }
  }

  /**
   * A clean stop (SIGTERM: Redis writes its AOF, MariaDB its buffers), then a start on the same
   * data.
   */
  final void restart() throws IOException, InterruptedException {
    stop();
    start();
  }

  final void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.toHandle().destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.toHandle().destroyForcibly();
        process.waitFor();
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }

  static int sparePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static boolean accepts(int port) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * {@code redis-server} with the AOF fsync'd every second, the durability the harness measures.
   */
  static final class Redis extends LocalStore {
    Redis(Path dir) throws IOException {
      super(dir);
    }

    @Override
    String name() {
      return "redis";
    }

    @Override
    List<String> command() {
      return List.of(
          "redis-server",
          "--port",
          Integer.toString(port),
          "--bind",
          "127.0.0.1",
          "--appendonly",
          "yes",
          "--appendfsync",
          "everysec",
          "--dir",
          dir.toString(),
          "--save",
          "");
    }

    @Override
    String storageYaml() {
      return "storage:\n  backend: redis\n  redis:\n    shards:\n      - name: \"1\"\n        host: 127.0.0.1\n"
          + "        port: "
          + port
          + "\n        database: 0\n    keyPrefix: \"faults:\"\n";
    }
  }

  /** {@code mariadbd --no-defaults} on a data folder made by {@code mariadb-install-db}. */
  static final class MariaDb extends LocalStore {
    MariaDb(Path dir) throws IOException {
      super(dir);
    }

    @Override
    String name() {
      return "mariadb";
    }

    @Override
    void init() throws IOException, InterruptedException {
      List<String> install =
          new ArrayList<>(
              List.of(
                  "mariadb-install-db",
                  "--no-defaults",
                  "--datadir=" + dir.resolve("data"),
                  "--auth-root-authentication-method=normal",
                  "--skip-test-db"));
      install.add("--user=" + System.getProperty("user.name"));
      Process p =
          new ProcessBuilder(install)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("install.out").toFile())
              .start();
      if (p.waitFor() != 0) {
        throw new IllegalStateException(
            "mariadb-install-db failed; see " + dir.resolve("install.out"));
      }
    }

    @Override
    List<String> command() {
      return List.of(
          "mariadbd",
          "--no-defaults",
          "--datadir=" + dir.resolve("data"),
          "--port=" + port,
          "--bind-address=127.0.0.1",
          "--socket=" + dir.resolve("mysqld.sock"),
          "--pid-file=" + dir.resolve("mysqld.pid"),
          "--user=" + System.getProperty("user.name"),
          "--skip-name-resolve",
          "--innodb-flush-log-at-trx-commit=1",
          "--max-connections=200");
    }

    @Override
    String storageYaml() {
      return "storage:\n  backend: jdbc\n  jdbc:\n    shards:\n      - name: \"1\"\n"
          + "        url: \"jdbc:mysql://127.0.0.1:"
          + port
          + "/flipper_faults?createDatabaseIfNotExist=true\"\n"
          + "        user: root\n        password: \"\"\n    poolSize: 10\n";
    }
  }
}
