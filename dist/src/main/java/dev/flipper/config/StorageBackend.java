package dev.flipper.config;

/** Which store holds the queue and workflow state. */
public enum StorageBackend {
  /** MariaDB/MySQL, or embedded H2 in MySQL mode. */
  JDBC,
  REDIS;

  static StorageBackend of(String word) {
    return valueOf(word.toUpperCase(java.util.Locale.ROOT));
  }
}
