package dev.flipper.launcher;

import java.nio.file.Path;

class WorkerFleetH2Test extends WorkerFleetContract {
  @Override
  String tokenDatabase(Path dir) {
    return "jdbc:h2:file:"
        + dir.resolve("tokens").toAbsolutePath()
        + ";MODE=MySQL;AUTO_SERVER=TRUE";
  }
}
