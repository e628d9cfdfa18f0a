package dev.flipper.launcher;

import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;

/** On a fresh MariaDB database, dropped after the test (as {@link WorkerProcessesMariaDbTest}). */
@Tag("mariadb")
class WorkerFleetMariaDbTest extends WorkerFleetContract {
  private String database;

  @Override
  String tokenDatabase(Path dir) {
    if (database == null) {
      database = "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
      WorkerProcessesMariaDbTest.execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4");
    }
    return WorkerProcessesMariaDbTest.SERVER + database;
  }

  @AfterEach
  void dropDatabase() {
    if (database != null) {
      WorkerProcessesMariaDbTest.execute("DROP DATABASE IF EXISTS " + database);
    }
  }
}
