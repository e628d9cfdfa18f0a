package dev.flipper.launcher.main;

import dev.flipper.launcher.Launcher;
import dev.flipper.launcher.Mode;

/**
 * Main class of {@code flipper-scheduler.jar}: runs the workflow scheduler. Usage: {@code java -jar
 * flipper-scheduler.jar -c FILE}.
 */
public final class SchedulerMain {
  private SchedulerMain() {}

  public static void main(String[] args) {
    Launcher.runMode(Mode.SCHEDULER, args);
  }
}
