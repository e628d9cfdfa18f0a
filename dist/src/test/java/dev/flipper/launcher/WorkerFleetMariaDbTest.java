package dev.flipper.launcher;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** On a fresh MariaDB database, dropped after the test ({@link MariaDbTestDatabase}). */
class WorkerFleetMariaDbTest extends WorkerFleetContract {
  private final MariaDbTestDatabase database = new MariaDbTestDatabase();

  @Override
  String tokenDatabase(Path dir) {
    return database.url();
  }

  @AfterEach
  void dropDatabase() {
    database.drop();
  }
}
