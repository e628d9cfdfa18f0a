package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * The instance page's action bar: the actions on the selected jobs and on the instance, each with
 * why it cannot apply, computed by the server ({@code ActionAvailability}). Immutable.
 */
public record ActionBar(List<JobAction> jobs, List<ActionButton> instance) {
  public ActionBar {
    jobs = List.copyOf(jobs);
    instance = List.copyOf(instance);
  }
}
