package dev.flipper.launcher.main;

import dev.flipper.launcher.Launcher;
import dev.flipper.launcher.Mode;

/**
 * Main class of {@code flipper-master.jar}: runs the workflow master. Usage: {@code java -jar
 * flipper-master.jar -c FILE}.
 */
public final class MasterMain {
  private MasterMain() {}

  public static void main(String[] args) {
    Launcher.runMode(Mode.MASTER, args);
  }
}
