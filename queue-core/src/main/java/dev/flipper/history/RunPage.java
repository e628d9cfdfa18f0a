package dev.flipper.history;

import java.util.List;

/** One page of runs and how many runs match the query in all. */
public record RunPage(List<RunRecord> runs, long total) {

  public RunPage {
    runs = List.copyOf(runs);
  }
}
