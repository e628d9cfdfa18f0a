package dev.flipper.config;

/** The {@code storage} section: the backend in use and the settings of both. Immutable. */
public record StorageConfig(
    StorageBackend backend, JdbcStorageConfig jdbc, RedisStorageConfig redis) {}
