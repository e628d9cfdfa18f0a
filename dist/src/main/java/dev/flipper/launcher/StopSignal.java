package dev.flipper.launcher;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Turns SIGTERM and SIGINT into a graceful stop. The JVM's own handling would run shutdown hooks
 * (and close libraries such as H2) while daemons still work, then exit with 143; instead the signal
 * wakes the launcher's main thread, which closes the modes in reverse order and exits 0. A shutdown
 * hook covers other exits (SIGHUP, System.exit elsewhere) by waiting for the same stop.
 * Thread-safe; one per process.
 */
final class StopSignal {
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Duration deadline;
  private volatile String reason = "";

  StopSignal(Duration deadline) {
    this.deadline = deadline;
  }

  /** Installs the signal handlers and the shutdown hook. */
  void install() {
    for (String name : new String[] {"TERM", "INT"}) {
      // Where the signal cannot be trapped, the shutdown hook still stops gracefully.
      trap(name, () -> request("SIG" + name));
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  request("JVM shutdown");
                  awaitStopped();
                },
                "flipper-shutdown"));
  }

  /**
   * sun.misc.Signal (module jdk.unsupported, exported for exactly this use) called reflectively, so
   * the build stays free of internal-API warnings.
   */
  private static boolean trap(String name, Runnable action) {
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
      Object signal = signalClass.getConstructor(String.class).newInstance(name);
      Object handler =
          Proxy.newProxyInstance(
              StopSignal.class.getClassLoader(),
              new Class<?>[] {handlerClass},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "handle" -> {
                      action.run();
                      yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> "flipper stop on SIG" + name;
                  });
      signalClass.getMethod("handle", signalClass, handlerClass).invoke(null, signal, handler);
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  void request(String why) {
    synchronized (this) {
      if (stopRequested.getCount() == 0) {
        return;
      }
      reason = why;
      stopRequested.countDown();
    }
    Thread watchdog = new Thread(this::haltIfStuck, "flipper-stop-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  /** Blocks until a stop is requested; returns why. */
  String await() throws InterruptedException {
    stopRequested.await();
    return reason;
  }

  /** The launcher has closed every mode. */
  void markStopped() {
    stopped.countDown();
  }

  private void awaitStopped() {
    try {
      stopped.await(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void haltIfStuck() {
    try {
      if (!stopped.await(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
        System.err.println(
            "flipper: the graceful stop took longer than " + deadline.toSeconds() + "s; exiting");
        Runtime.getRuntime().halt(1);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
