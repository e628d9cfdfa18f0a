package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * A property a job printed ({@code PINBALL:key=value} lines). Immutable.
 *
 * @param link true for {@code job_url} and {@code kv_job_url} values that are http(s) URLs: shown
 *     as links
 */
public record Property(String key, List<String> values, boolean link) {
  public Property {
    values = List.copyOf(values);
  }
}
