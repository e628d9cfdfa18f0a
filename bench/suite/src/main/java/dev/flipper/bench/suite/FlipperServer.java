package dev.flipper.bench.suite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;

/**
 * A Flipper queue server in its own JVM, started from the distribution with a config made from a template in
 * resources/flipper/ ({@code ${PORT} ${ADMIN_PORT} ${PREFIX} ${DB} ${DIR}}), on databases and a key prefix of its
 * own: the server creates them (createDatabaseIfNotExist), this class removes them after.
 */
final class FlipperServer implements AutoCloseable {
  private static final Pattern MYSQL_DATABASE = Pattern.compile("jdbc:mysql://[^/\\s\"]+/(\\w+)");

  private final Process process;
  private final int port;
  private final List<String> databases;
  private final String redisPrefix;
  private final StoreAddresses stores;

  private FlipperServer(Process process, int port, List<String> databases, String redisPrefix,
      StoreAddresses stores) {
    this.process = process;
    this.port = port;
    this.databases = databases;
    this.redisPrefix = redisPrefix;
    this.stores = stores;
  }

  static FlipperServer start(Path flipperHome, Target target, StoreAddresses stores, Path runDir) throws Exception {
    String id = target.name().replace('-', '_') + "_" + Long.toHexString(System.nanoTime() & 0xffffff);
    int port = freePort();
    Path dir = Files.createDirectories(runDir.resolve(target.name()));
    String config = fill(template(target.serverTemplate()), Map.of(
        "PORT", Integer.toString(port),
        "ADMIN_PORT", Integer.toString(freePort()),
        "PREFIX", "bench_" + id + ":",
        "DB", "bench_" + id,
        "DIR", dir.toAbsolutePath().toString()));
    Path configFile = dir.resolve("flipper.yaml");
    Files.writeString(configFile, config);
    List<String> databases = new ArrayList<>();
    Matcher database = MYSQL_DATABASE.matcher(config);
    while (database.find()) {
      databases.add(database.group(1));
    }
    Process process = new ProcessBuilder(flipperHome.resolve("bin/flipper").toString(), "-c", configFile.toString(),
        "-m", "queue")
        .redirectErrorStream(true)
        .start();
    String prefix = "bench_" + id + ":";
    FlipperServer server = new FlipperServer(process, port, databases, config.contains(prefix) ? prefix : null, stores);
    server.awaitReady(dir.resolve("server.log"));
    return server;
  }

  String address() {
    return "127.0.0.1:" + port;
  }

  long pid() {
    return process.pid();
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    stores.dropDatabases(databases);
    stores.deleteRedisKeys(redisPrefix);
  }

  /** Copies the server's output to its log and returns once it says it is ready. */
  private void awaitReady(Path log) throws Exception {
    CountDownLatch ready = new CountDownLatch(1);
    Thread copier = new Thread(() -> copy(process.getInputStream(), log, ready), "flipper-server-log");
    copier.setDaemon(true);
    copier.start();
    if (!ready.await(90, TimeUnit.SECONDS)) {
      close();
      throw new IllegalStateException("the Flipper queue server did not say 'ready' within 90 s; see " + log);
    }
  }

  private static void copy(InputStream output, Path log, CountDownLatch ready) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
      for (String line; (line = lines.readLine()) != null; ) {
        out.println(line);
        if (line.contains("ready")) {
          ready.countDown();
        }
      }
    } catch (IOException e) {
      // the server was stopped: its output is closed
    }
  }

  private static String template(String name) throws IOException {
    try (InputStream in = FlipperServer.class.getResourceAsStream("/flipper/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no server template resources/flipper/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String fill(String template, Map<String, String> values) {
    String filled = template;
    for (Map.Entry<String, String> value : values.entrySet()) {
      filled = filled.replace("${" + value.getKey() + "}", value.getValue());
    }
    return filled;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** The shared MariaDB and Redis the suite runs on, and how to clean up after a server. */
  record StoreAddresses(String jdbcUrl, String user, String password, String redisHost, int redisPort) {
    void dropDatabases(List<String> names) throws SQLException {
      if (names.isEmpty()) {
        return;
      }
      try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password)) {
        for (String name : names) {
          connection.createStatement().execute("DROP DATABASE IF EXISTS " + name);
        }
      }
    }

    void deleteRedisKeys(String prefix) {
      if (prefix == null) {
        return;
      }
      try (Jedis jedis = new Jedis(redisHost, redisPort)) {
        for (int database : new int[] {0, 1}) { // redis-2.yaml puts its second shard in database 1
          jedis.select(database);
          String cursor = ScanParams.SCAN_POINTER_START;
          do {
            var page = jedis.scan(cursor, new ScanParams().match(prefix + "*").count(1000));
            if (!page.getResult().isEmpty()) {
              jedis.del(page.getResult().toArray(String[]::new));
            }
            cursor = page.getCursor();
          } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
      }
    }
  }
}
