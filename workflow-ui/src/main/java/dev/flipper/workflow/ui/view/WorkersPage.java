package dev.flipper.workflow.ui.view;

import dev.flipper.workflow.tokens.DamagedToken;
import java.util.List;

/**
 * The workers page ({@code /workers}, {@code /api/workers}): every heartbeat ({@code
 * /worker/<name>} tokens) and the global EXIT signal. Immutable.
 *
 * @param exitGeneration workers older than this exit (the EXIT signal); null if none is set
 * @param newestGeneration the highest generation among the alive workers, the default for a new
 *     EXIT; null if none
 * @param damaged the page's tokens that do not parse, shown as {@code DAMAGED <name>: <reason>}
 *     rows
 */
public record WorkersPage(
    Banner banner,
    Integer exitGeneration,
    Integer newestGeneration,
    int alive,
    int retiring,
    int dead,
    List<WorkerRow> workers,
    List<DamagedToken> damaged) {
  public WorkersPage {
    damaged = List.copyOf(damaged);
    workers = List.copyOf(workers);
  }
}
