package dev.flipper.thrift;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.apache.thrift.server.TServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle every Flipper Thrift server shares, whatever its libthrift server type (the queue's
 * non-blocking selector server, the master's thread-per-connection server): run {@link
 * TServer#serve()} on its own thread and return once it serves; on stop, stop accepting, let calls
 * in flight finish for up to a grace period, then stop the server and its thread. The servers keep
 * what differs: sockets, worker pools and how they stop accepting. Thread-safe for one start and
 * one stop.
 */
public final class ThriftServing {
  private static final Logger log = LoggerFactory.getLogger(ThriftServing.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(5);

  private final String name;
  private final TServer server;
  private final IntSupplier inFlight;
  private final Duration grace;
  private Thread serveThread;

  /**
   * @param name the server in log lines and errors, e.g. {@code "queue server on port 9010"}
   * @param inFlight how many calls are running now
   * @param grace how long {@link #drain} lets running calls finish
   */
  public ThriftServing(String name, TServer server, IntSupplier inFlight, Duration grace) {
    this.name = Objects.requireNonNull(name, "name");
    this.server = Objects.requireNonNull(server, "server");
    this.inFlight = Objects.requireNonNull(inFlight, "inFlight");
    this.grace = Objects.requireNonNull(grace, "grace");
  }

  /**
   * Starts serving on a thread named {@code threadName}; returns once the server loop runs. Waiting
   * matters: libthrift servers clear their stop flag when the loop starts, so a stop before that
   * moment would be forgotten and the loop would spin on a closed socket. IllegalStateException if
   * it does not serve in 10 s.
   */
  public void start(String threadName) {
    serveThread = new Thread(server::serve, threadName);
    serveThread.setDaemon(true);
    serveThread.start();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!server.isServing()) {
      if (!serveThread.isAlive() || System.nanoTime() > deadline) {
        server.stop();
        throw new IllegalStateException(
            name + " did not start serving within " + START_TIMEOUT.toSeconds() + " s");
      }
      pause(1);
    }
  }

  public boolean isServing() {
    return server.isServing();
  }

  /**
   * Stops taking new work with {@code stopAccepting}, then waits until no call runs or the grace
   * period ends (logging the calls still running then). Returns what is left of the grace period.
   */
  public Duration drain(Runnable stopAccepting) {
    long deadline = System.nanoTime() + grace.toNanos();
    stopAccepting.run();
    while (inFlight.getAsInt() > 0 && System.nanoTime() < deadline) {
      pause(5);
    }
    int running = inFlight.getAsInt();
    if (running > 0) {
      log.warn(
          "closing the {} with {} call(s) still running after the grace period of {}",
          name,
          running,
          grace);
    }
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }

  /** Stops the server loop and waits (up to 5 s) for its thread. Idempotent. */
  public void stop() {
    server.stop();
    if (serveThread != null) {
      try {
        serveThread.join(JOIN_TIMEOUT.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Sleeps without throwing; an interrupt is kept for the caller. */
  public static void pause(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
