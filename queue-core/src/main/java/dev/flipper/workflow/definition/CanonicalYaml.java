package dev.flipper.workflow.definition;

import dev.flipper.text.DurationText;
import dev.flipper.yaml.YamlWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The canonical YAML text of a definition, for storing it where people read it (a token in the
 * master): the file format, keys in the documented order, defaults written out except an unset
 * {@code priority} (its default depends on the graph) and empty lists and unset options left out.
 * Stateless.
 */
final class CanonicalYaml {
  private CanonicalYaml() {}

  static String write(WorkflowDefinition definition) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("workflow", definition.name());
    if (!definition.description().isEmpty()) {
      root.put("description", definition.description());
    }
    if (!definition.owners().isEmpty()) {
      root.put("owners", definition.owners());
    }
    if (!definition.emails().isEmpty()) {
      root.put("emails", definition.emails());
    }
    definition.schedule().ifPresent(s -> root.put("schedule", schedule(s)));
    Map<String, Object> jobs = new LinkedHashMap<>();
    for (JobDefinition job : definition.jobs()) {
      jobs.put(job.name(), job(job));
    }
    root.put("jobs", jobs);
    return YamlWriter.write(root);
  }

  private static Map<String, Object> schedule(Schedule s) {
    Map<String, Object> map = new LinkedHashMap<>();
    s.every().ifPresent(d -> map.put("every", DurationText.format(d)));
    s.cron()
        .ifPresent(
            c -> {
              map.put("cron", c);
              map.put("timezone", s.timezone().getId());
            });
    s.start().ifPresent(t -> map.put("start", t.toString()));
    map.put("overrun", s.overrun().name());
    map.put("maxRunning", s.maxRunning());
    map.put("catchUp", s.catchUp());
    return map;
  }

  private static Map<String, Object> job(JobDefinition job) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("command", job.command());
    if (job.condition()) {
      map.put("condition", true);
    }
    if (!job.needs().isEmpty()) {
      map.put("needs", job.needs());
    }
    map.put("maxAttempts", job.maxAttempts());
    map.put("retryDelay", DurationText.format(job.retryDelay()));
    job.warnTimeout().ifPresent(d -> map.put("warnTimeout", DurationText.format(d)));
    job.abortTimeout().ifPresent(d -> map.put("abortTimeout", DurationText.format(d)));
    job.cleanup().ifPresent(c -> map.put("cleanup", c));
    if (!job.emails().isEmpty()) {
      map.put("emails", job.emails());
    }
    job.priority().ifPresent(p -> map.put("priority", p));
    if (job.disabled()) {
      map.put("disabled", true);
    }
    return map;
  }
}
