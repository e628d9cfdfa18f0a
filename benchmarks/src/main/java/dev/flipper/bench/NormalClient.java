package dev.flipper.bench;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A well-behaved client that calls a server every 20 ms over one connection with a 1 s read
 * time-out while a benchmark hurts the server; notes each failed call (and stops at the first) and
 * the slowest call.
 */
final class NormalClient {
  /** A call that may fail. */
  @FunctionalInterface
  interface Call {
    void run() throws Exception;
  }

  /** An open connection: its call and how to close it. */
  record Connection(Call call, Call close) {}

  /** Opens the connection. */
  @FunctionalInterface
  interface Connector {
    Connection open() throws Exception;
  }

  private final String name;
  private final Connector connector;
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicLong slowestNanos = new AtomicLong();
  private volatile boolean running = true;
  private Thread thread;

  NormalClient(String from, Connector connector) {
    this.name = "normal-client-" + from;
    this.connector = connector;
  }

  void start() {
    thread = new Thread(this::run, name);
    thread.setDaemon(true);
    thread.start();
  }

  void stop() throws InterruptedException {
    running = false;
    thread.join();
  }

  List<String> failures() {
    return failures;
  }

  int calls() {
    return calls.get();
  }

  long slowestMillis() {
    return TimeUnit.NANOSECONDS.toMillis(slowestNanos.get());
  }

  private void run() {
    Connection connection;
    try {
      connection = connector.open();
    } catch (Exception e) {
      failures.add("connect: " + e);
      return;
    }
    try {
      while (running) {
        long start = System.nanoTime();
        try {
          connection.call().run();
        } catch (Exception e) {
          failures.add("call " + calls.get() + ": " + e);
          return;
        }
        slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
        calls.incrementAndGet();
        Thread.sleep(20);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        connection.close().run();
      } catch (Exception e) {
        failures.add("close: " + e);
      }
    }
  }
}
