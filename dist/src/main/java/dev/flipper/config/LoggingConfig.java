package dev.flipper.config;

/**
 * The {@code logging} section. {@code level} is TRACE, DEBUG, INFO, WARN or ERROR; {@code file} is
 * "" for console only, and may contain {@code {mode}}. Immutable.
 */
public record LoggingConfig(String level, String file) {}
