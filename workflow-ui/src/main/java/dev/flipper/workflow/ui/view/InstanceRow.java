package dev.flipper.workflow.ui.view;

/**
 * One instance of a workflow. Immutable; times are ISO-8601 UTC text, {@code end} null while it
 * runs.
 *
 * @param status as shown: PAUSED or DRAINED while such a signal holds the running instance
 * @param hold that signal and its levels ({@code DRAIN signal (workflow level)}); null if none
 * @param durationMillis end (or now) minus start
 */
public record InstanceRow(
    String workflow,
    String instance,
    String status,
    String hold,
    String start,
    String end,
    long durationMillis,
    String startedBy,
    String definitionVersion) {}
