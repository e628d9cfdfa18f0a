package dev.flipper.config;

/**
 * The {@code network} section. {@code bindAddress} is the default of every daemon's own {@code
 * <section>.bindAddress}; the loader has already filled it into those, so daemons read their own
 * key. Immutable.
 */
public record NetworkConfig(String bindAddress) {}
