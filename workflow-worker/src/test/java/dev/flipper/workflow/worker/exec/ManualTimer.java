package dev.flipper.workflow.worker.exec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A {@link TaskTimer} whose tasks run only when a test says so. Thread-safe. */
final class ManualTimer implements TaskTimer {
  private record Task(Duration delay, Runnable runnable) {}

  private final List<Task> tasks = new ArrayList<>();

  @Override
  public synchronized Scheduled schedule(Duration delay, Runnable task) {
    Task t = new Task(delay, task);
    tasks.add(t);
    return () -> {
      synchronized (this) {
        tasks.remove(t);
      }
    };
  }

  synchronized int pending() {
    return tasks.size();
  }

  /** Runs (once) every pending task due within {@code elapsed}. */
  void advance(Duration elapsed) {
    List<Task> due = new ArrayList<>();
    synchronized (this) {
      for (Task t : List.copyOf(tasks)) {
        if (t.delay.compareTo(elapsed) <= 0) {
          due.add(t);
          tasks.remove(t);
        }
      }
    }
    due.forEach(t -> t.runnable.run());
  }
}
