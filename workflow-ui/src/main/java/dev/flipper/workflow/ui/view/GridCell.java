package dev.flipper.workflow.ui.view;

/**
 * One job in one run of the grid: the status of the job's last execution there. Immutable.
 *
 * @param execution the last execution's number (for its log)
 * @param attempts how many times the job ran in that run
 * @param link its log page (stdout), or its job page when it has no log (a disabled job)
 * @param label {@code job X in run Y: FAILURE after 2 attempts}
 */
public record GridCell(
    String instance, String status, int execution, int attempts, String link, String label) {}
