package dev.flipper.launcher.main;

import dev.flipper.launcher.Launcher;
import dev.flipper.launcher.Mode;

/**
 * Main class of {@code flipper-queue-server.jar}: runs the queue server. Usage: {@code java -jar
 * flipper-queue-server.jar -c FILE}.
 */
public final class QueueServerMain {
  private QueueServerMain() {}

  public static void main(String[] args) {
    Launcher.runMode(Mode.QUEUE, args);
  }
}
