package dev.flipper.config;

/**
 * Where one daemon's admin HTTP server listens: {@code <section>.bindAddress} (the shared {@code
 * network.bindAddress} unless the section sets its own) and {@code <section>.adminPort}. Immutable.
 */
public record AdminConfig(String bindAddress, int adminPort) {}
