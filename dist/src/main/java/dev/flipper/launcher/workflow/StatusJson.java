package dev.flipper.launcher.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.WorkflowSummary;
import dev.flipper.workflow.tokens.DamagedToken;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON of {@code flipper workflow status --json}: one document per call, times as ISO-8601 UTC
 * text (null when not reached), status values as in docs/workflows.md (an instance's status is
 * PAUSED or DRAINED while such a signal holds it, with {@code hold} saying which and where). Field
 * order is fixed. Stateless.
 */
final class StatusJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private StatusJson() {}

  /** The workflows, then an entry per damaged token ({@link #damaged}). */
  static String workflows(List<WorkflowSummary> workflows, List<DamagedToken> damaged) {
    List<Object> list = new ArrayList<>();
    for (WorkflowSummary w : workflows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", w.name());
      m.put("definitionVersion", w.definitionVersion().orElse(null));
      m.put("status", w.status().map(Enum::name).orElse(null));
      m.put("runningInstances", w.runningInstances());
      m.put("lastInstance", w.lastInstance().map(StatusJson::instance).orElse(null));
      list.add(m);
    }
    damaged.forEach(d -> list.add(damaged(d)));
    return write(Map.of("workflows", list));
  }

  /**
   * Archived instances first (the older ones), each with {@code "archived"}; then an entry per
   * damaged token.
   */
  static String instances(
      String workflow,
      List<InstanceSummary> active,
      List<InstanceSummary> archived,
      List<DamagedToken> damaged) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workflow", workflow);
    List<Object> list = new ArrayList<>();
    archived.forEach(i -> list.add(archived(instance(i), true)));
    active.forEach(i -> list.add(archived(instance(i), false)));
    damaged.forEach(d -> list.add(damaged(d)));
    m.put("instances", list);
    return write(m);
  }

  static String instance(InstanceDetail detail, boolean isArchived) {
    Map<String, Object> m = archived(instance(detail.summary()), isArchived);
    List<Object> jobs = new ArrayList<>();
    for (JobDetail job : detail.jobs()) {
      Map<String, Object> j = new LinkedHashMap<>();
      j.put("name", job.name());
      j.put("status", job.status().name());
      j.put("attempts", job.attempt());
      j.put("maxAttempts", job.maxAttempts());
      j.put("needs", job.needs());
      j.put("heldBy", job.heldBy());
      j.put("executions", job.executions().stream().map(StatusJson::execution).toList());
      jobs.add(j);
    }
    detail.damaged().forEach(d -> jobs.add(damaged(d)));
    m.put("jobs", jobs);
    return write(m);
  }

  /** An instance whose record does not parse. */
  static String damagedInstance(String workflow, String instance, DamagedToken damage) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workflow", workflow);
    m.put("instance", instance);
    m.putAll(damaged(damage));
    return write(m);
  }

  /**
   * A token that does not parse, as an entry of a list: {@code {"token": name, "damaged": reason}}.
   */
  static Map<String, Object> damaged(DamagedToken damage) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("token", damage.name());
    m.put("damaged", damage.reason());
    return m;
  }

  private static Map<String, Object> instance(InstanceSummary s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workflow", s.workflow());
    m.put("instance", s.instance());
    m.put("status", s.shownStatus().name());
    m.put(
        "hold",
        s.hold().map(h -> Map.of("signal", h.signal().name(), "levels", h.levels())).orElse(null));
    m.put("start", time(Optional.of(s.start())));
    m.put("end", time(s.end()));
    m.put("definitionVersion", s.definitionVersion());
    m.put("failedJobs", s.failedJobs());
    m.put("params", s.params());
    return m;
  }

  private static Map<String, Object> archived(Map<String, Object> instance, boolean archived) {
    instance.put("archived", archived);
    return instance;
  }

  private static Map<String, Object> execution(ExecutionDetail e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("execution", e.execution());
    m.put("attempt", e.attempt());
    m.put("exitCode", e.exitCode());
    m.put("start", time(Optional.of(e.start())));
    m.put("end", time(e.end()));
    m.put("properties", e.properties());
    m.put("logs", e.logs());
    m.put("command", e.command());
    m.put("worker", e.worker());
    m.put("host", e.host());
    m.put("cleanupExitCode", e.cleanupExitCode());
    m.put("endReason", e.endReason());
    return m;
  }

  private static String time(Optional<Instant> instant) {
    return instant.map(Instant::toString).orElse(null);
  }

  private static String write(Object document) {
    try {
      return MAPPER.writeValueAsString(document);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("status JSON", e);
    }
  }
}
