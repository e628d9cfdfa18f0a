package dev.flipper.workflow.ui.view;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One job across the grid's runs. Immutable.
 *
 * @param cells one per run, oldest first as the columns; null where the job did not run
 */
public record GridRow(String job, List<GridCell> cells) {
  public GridRow {
    cells = Collections.unmodifiableList(new ArrayList<>(cells));
  }
}
