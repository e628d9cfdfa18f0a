package dev.flipper.workflow.ui.view;

/**
 * One instance of a workflow. Immutable; times are ISO-8601 UTC text, {@code end} null while it
 * runs.
 *
 * @param durationMillis end (or now) minus start
 */
public record InstanceRow(
    String workflow,
    String instance,
    String status,
    String start,
    String end,
    long durationMillis,
    String startedBy,
    String definitionVersion) {}
