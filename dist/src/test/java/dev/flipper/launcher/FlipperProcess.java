package dev.flipper.launcher;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The launcher in a separate JVM (the test's classpath), as a user runs it: its output lines, the
 * admin URLs it printed, SIGTERM and its exit code. Test helper; not thread-safe.
 */
final class FlipperProcess implements AutoCloseable {
  private static final Pattern READY =
      Pattern.compile("flipper: (\\w+) ready, admin (http://\\S+)/health(, .+)?");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final List<String> out = Collections.synchronizedList(new ArrayList<>());
  private final List<String> err = Collections.synchronizedList(new ArrayList<>());
  private final Thread outPump;
  private final Thread errPump;

  private FlipperProcess(Process process) {
    this.process = process;
    this.outPump = pump(process.getInputStream(), out, "stdout");
    this.errPump = pump(process.getErrorStream(), err, "stderr");
  }

  /** Starts {@code java -cp <test classpath> dev.flipper.launcher.Launcher args...}. */
  static FlipperProcess start(Path workDir, String... args) throws IOException {
    return start(workDir, List.of(), args);
  }

  /** As {@link #start(Path, String...)}, with more JVM options (e.g. system properties). */
  static FlipperProcess start(Path workDir, List<String> jvmOptions, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // A small, quickly started JVM: the daemons do little yet, and CI has two cores.
    command.addAll(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k"));
    command.addAll(jvmOptions);
    command.add("-cp");
    // Surefire may hide the real classpath behind a manifest-only jar; it exposes it here.
    command.add(
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    command.add(Launcher.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
    builder
        .environment()
        .remove("JAVA_TOOL_OPTIONS"); // its "Picked up" notice would land on stderr
    return new FlipperProcess(builder.start());
  }

  private static Thread pump(InputStream stream, List<String> lines, String name) {
    Thread thread =
        new Thread(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("<" + name + " closed: " + e + ">");
              }
            },
            "flipper-process-" + name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** Waits until every mode printed its ready line; returns mode to admin base URL. */
  Map<String, String> awaitReady(List<String> modes) {
    await(
            "ready lines of "
                + modes
                + "; output so far:\n"
                + String.join("\n", out)
                + "\n"
                + String.join("\n", err))
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> adminUrls().keySet().containsAll(modes) || !process.isAlive());
    if (!process.isAlive()) {
      throw new AssertionError(
          "flipper exited with " + process.exitValue() + " before it was ready:\n" + output());
    }
    return adminUrls();
  }

  private Map<String, String> adminUrls() {
    Map<String, String> urls = new LinkedHashMap<>();
    synchronized (out) {
      for (String line : out) {
        Matcher m = READY.matcher(line);
        if (m.matches()) {
          urls.put(m.group(1), m.group(2));
        }
      }
    }
    return urls;
  }

  static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Sends SIGTERM. Through the ProcessHandle: Process.destroy() sends the same signal but also
   * closes our end of the pipes, losing what the process prints while it stops.
   */
  void sigterm() {
    process.toHandle().destroy();
  }

  /**
   * SIGKILL: the process dies at once, as on a crash (its job processes, in their own groups, live
   * on).
   */
  void kill() throws InterruptedException {
    process.toHandle().destroyForcibly();
    process.waitFor();
  }

  /**
   * SIGSTOP ({@code stop}) or SIGCONT: a frozen process does nothing, as a worker between two lease
   * renewals, so a test decides what happens before it next looks (its job processes, in their own
   * groups, run on).
   */
  void freeze(boolean stop) throws Exception {
    Process kill =
        new ProcessBuilder("kill", stop ? "-STOP" : "-CONT", Long.toString(process.pid())).start();
    if (kill.waitFor() != 0) {
      throw new AssertionError("kill " + (stop ? "-STOP " : "-CONT ") + process.pid() + " failed");
    }
  }

  /** The exit code, waiting at most {@code timeout}; fails if the process is still running then. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("flipper did not exit within " + timeout + ":\n" + output());
    }
    return process.exitValue();
  }

  /** Stdout lines so far, after the streams ended if the process exited. */
  List<String> out() {
    awaitStreamsDrained();
    synchronized (out) {
      return List.copyOf(out);
    }
  }

  List<String> err() {
    awaitStreamsDrained();
    synchronized (err) {
      return List.copyOf(err);
    }
  }

  /** Once the process has exited, its streams end: wait for the pumps to read the last lines. */
  private void awaitStreamsDrained() {
    if (process.isAlive()) {
      return;
    }
    try {
      outPump.join(5_000);
      errPump.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  String output() {
    return "stdout:\n" + String.join("\n", out) + "\nstderr:\n" + String.join("\n", err);
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
