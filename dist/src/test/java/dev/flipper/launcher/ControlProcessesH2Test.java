package dev.flipper.launcher;

import java.nio.file.Path;

class ControlProcessesH2Test extends ControlProcessesContract {
  @Override
  String tokenDatabase(Path dir) {
    return "jdbc:h2:file:"
        + dir.resolve("tokens").toAbsolutePath()
        + ";MODE=MySQL;AUTO_SERVER=TRUE";
  }
}
