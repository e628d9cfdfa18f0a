package dev.flipper.launcher.main;

import dev.flipper.launcher.Launcher;
import dev.flipper.launcher.Mode;

/**
 * Main class of {@code flipper-worker.jar}: runs the workflow workers. Usage: {@code java -jar
 * flipper-worker.jar -c FILE}.
 */
public final class WorkerMain {
  private WorkerMain() {}

  public static void main(String[] args) {
    Launcher.runMode(Mode.WORKERS, args);
  }
}
