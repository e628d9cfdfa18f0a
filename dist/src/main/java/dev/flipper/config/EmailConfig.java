package dev.flipper.config;

import java.util.List;

/** The {@code email} section. Immutable. */
public record EmailConfig(boolean enabled, String smtpHost, int smtpPort, String from, List<String> to) {}
