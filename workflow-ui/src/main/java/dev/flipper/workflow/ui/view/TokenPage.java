package dev.flipper.workflow.ui.view;

/**
 * One active token ({@code /token?name=...}). Immutable.
 *
 * @param expiration ISO-8601 UTC text, {@code never} for the engine's holds, null if not owned
 * @param data the data as stored (JSON pretty-printed when it is JSON)
 */
public record TokenPage(
    Banner banner,
    String name,
    long version,
    String owner,
    String expiration,
    double priority,
    String data) {}
