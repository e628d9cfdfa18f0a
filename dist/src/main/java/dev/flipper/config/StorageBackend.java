package dev.flipper.config;

/**
 * Which store holds the queue and workflow state; bound from {@code storage.backend}, ignoring
 * case.
 */
public enum StorageBackend {
  /** MariaDB/MySQL, or embedded H2 in MySQL mode. */
  JDBC,
  REDIS
}
