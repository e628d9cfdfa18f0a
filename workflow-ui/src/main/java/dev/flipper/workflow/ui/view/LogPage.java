package dev.flipper.workflow.ui.view;

/**
 * The log viewer of one execution's log ({@code .../executions/<n>/logs/<stream>}); the text itself
 * comes from the log API in chunks. Immutable.
 *
 * @param url where the worker serves it (shown so an operator sees which worker wrote it)
 */
public record LogPage(
    Banner banner,
    String workflow,
    String instance,
    String job,
    int execution,
    String stream,
    boolean running,
    String worker,
    String url) {}
