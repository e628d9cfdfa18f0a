package dev.flipper.workflow.master.acceptance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Token masters running as separate JVMs over one database, each on a fixed port so it can be
 * killed and started again at the same address. Their output goes to {@code target/master-<n>.log}.
 * Not thread-safe.
 */
final class MasterProcesses implements AutoCloseable {
  private final String jdbcUrl;
  private final List<Integer> ports = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();

  MasterProcesses(String jdbcUrl, int count) {
    this.jdbcUrl = jdbcUrl;
    for (int i = 0; i < count; i++) {
      ports.add(freePort());
      processes.add(null);
    }
  }

  int port(int master) {
    return ports.get(master);
  }

  int count() {
    return ports.size();
  }

  /** Starts every master and waits until each listens. */
  void startAll() {
    List<CompletableFuture<Void>> starting = new ArrayList<>();
    for (int i = 0; i < ports.size(); i++) {
      int master = i;
      starting.add(CompletableFuture.runAsync(() -> start(master)));
    }
    starting.forEach(CompletableFuture::join);
  }

  /** Starts one master and waits (up to a minute) until it listens. */
  void start(int master) {
    try {
      Path log = Path.of("target", "master-" + master + ".log");
      ProcessBuilder builder =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx192m",
                  "-XX:TieredStopAtLevel=1",
                  "-cp",
                  System.getProperty("java.class.path"),
                  MasterProcessMain.class.getName(),
                  jdbcUrl,
                  Integer.toString(ports.get(master)))
              .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
      Process process = builder.start();
      processes.set(master, process);
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      CompletableFuture<Void> listening =
          CompletableFuture.runAsync(
              () -> {
                try {
                  for (String line; (line = out.readLine()) != null; ) {
                    Files.writeString(
                        log,
                        line + "\n",
                        StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
                    if (line.startsWith("LISTENING ")) {
                      return;
                    }
                  }
                  throw new IllegalStateException(
                      "master " + master + " exited before listening; see " + log);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      listening.get(60, TimeUnit.SECONDS);
      Thread drain =
          new Thread(
              () -> { // keep reading, or the child blocks on a full pipe
                try {
                  while (out.readLine() != null) {
                    // discarded: the log file has the start-up lines
                  }
                } catch (IOException ignored) {
                  // the process died
                }
              },
              "master-" + master + "-stdout");
      drain.setDaemon(true);
      drain.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start master " + master, e);
    }
  }

  /** SIGKILL: no shutdown hook, no graceful close. */
  void kill(int master) throws InterruptedException {
    Process process = processes.get(master);
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    for (Process process : processes) {
      if (process != null && process.isAlive()) {
        try {
          process.getOutputStream().close(); // asks it to stop
          if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
          }
        } catch (IOException | InterruptedException e) {
          process.destroyForcibly();
        }
      }
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
