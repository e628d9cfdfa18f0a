package dev.flipper.launcher.main;

import dev.flipper.launcher.Launcher;
import dev.flipper.launcher.Mode;

/**
 * Main class of {@code flipper-ui.jar}: runs the workflow UI. Usage: {@code java -jar
 * flipper-ui.jar -c FILE}.
 */
public final class UiMain {
  private UiMain() {}

  public static void main(String[] args) {
    Launcher.runMode(Mode.UI, args);
  }
}
