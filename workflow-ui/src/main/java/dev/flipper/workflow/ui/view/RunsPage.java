package dev.flipper.workflow.ui.view;

import dev.flipper.workflow.ui.RunFilters;

/**
 * The runs section of a workflow page: one page of runs, the filters that chose it and where it is
 * in the whole list. Immutable.
 */
public record RunsPage(RunList list, RunFilters filters, Paging paging) {}
