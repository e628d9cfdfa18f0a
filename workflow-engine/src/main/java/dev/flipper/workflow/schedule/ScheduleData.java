package dev.flipper.workflow.schedule;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSON data of a schedule token {@code /schedule/workflow/<wf>} (docs/tokens.md, kind {@code
 * schedule}, schema 1). Pinball's fields keep their names; the fields after {@code parserParams}
 * were added for cron, catch-up and the once-per-slot e-mail. Fields this version does not know are
 * kept and written back. Mutable, not thread-safe: read, change, write.
 */
public final class ScheduleData {
  public String kind = "schedule";
  public int schema = 1;
  public String workflow;

  /**
   * The oldest slot not yet fired or skipped, epoch ms; null until a scheduler has computed the
   * first one.
   */
  public Long nextRunMillis;

  /** {@code every}, in ms; null for a cron schedule. */
  public Long recurrenceMillis;

  public String overrunPolicy = "SKIP";
  public int maxRunningInstances = 3;
  public List<String> emails = new ArrayList<>();
  public Map<String, String> parserParams = new LinkedHashMap<>();

  /** The cron expression; null for an {@code every} schedule. */
  public String cron;

  /** The zone cron times are read in; default UTC. */
  public String timezone;

  /**
   * The reference {@code every} counts from: the definition's {@code start}, else when first
   * stored.
   */
  public Long startMillis;

  /** True if {@code start} came from the definition (not the time it was stored). */
  public boolean startGiven;

  public int catchUp;

  /**
   * When {@code flipper workflow apply} last wrote it; the first slot is the first at or after
   * this.
   */
  public Long appliedMillis;

  /** The slot for which the too-many-instances e-mail was sent, so it is sent once per slot. */
  public Long tooManyMailedForMillis;

  private final Map<String, Object> unknown = new LinkedHashMap<>();

  @JsonAnySetter
  void unknown(String name, Object value) {
    unknown.put(name, value);
  }

  @JsonAnyGetter
  Map<String, Object> unknown() {
    return unknown;
  }

  /**
   * True if both describe the same schedule (policy, timing, limits, recipients), whatever their
   * state.
   */
  public boolean sameDefinition(ScheduleData other) {
    return sameTiming(other)
        && Objects.equals(overrunPolicy, other.overrunPolicy)
        && maxRunningInstances == other.maxRunningInstances
        && catchUp == other.catchUp
        && Objects.equals(emails, other.emails)
        && Objects.equals(parserParams, other.parserParams);
  }

  /** True if both have the same slots. */
  public boolean sameTiming(ScheduleData other) {
    return Objects.equals(recurrenceMillis, other.recurrenceMillis)
        && Objects.equals(cron, other.cron)
        && Objects.equals(timezone, other.timezone)
        && startGiven == other.startGiven
        && (!startGiven || Objects.equals(startMillis, other.startMillis));
  }
}
