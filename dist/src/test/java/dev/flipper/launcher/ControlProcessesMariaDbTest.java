package dev.flipper.launcher;

import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/** On a fresh MariaDB database, dropped after the class (as {@link WorkerProcessesMariaDbTest}). */
@Tag("mariadb")
class ControlProcessesMariaDbTest extends ControlProcessesContract {
  private String database;

  @Override
  String tokenDatabase(Path dir) {
    if (database == null) {
      database = "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
      WorkerProcessesMariaDbTest.execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4");
    }
    return WorkerProcessesMariaDbTest.SERVER + database;
  }

  @AfterAll
  void dropDatabase() {
    if (database != null) {
      WorkerProcessesMariaDbTest.execute("DROP DATABASE IF EXISTS " + database);
    }
  }
}
