package dev.flipper.workflow.schedule;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.tokens.DamagedToken;
import dev.flipper.workflow.tokens.DamagedTokenException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Schedule tokens, {@code /schedule/workflow/<wf>}: one per scheduled workflow, written when
 * definitions are applied and claimed by schedulers when due. Pure functions of definitions and
 * stored tokens, plus two small operations on a master for the CLI. No cron arithmetic here: a new
 * or re-timed schedule is stored without a next run time, and the first scheduler that claims it
 * (at once: its lease is empty) computes it from {@code appliedMillis}. So this class can be used
 * by the engine's {@code apply} in workflow-master. Stateless.
 *
 * <p>Lease convention (Pinball's): a stored schedule is owned until its next run time ({@code
 * expirationTime} = next run, in whole seconds rounded up), so {@code queryAndOwn} on {@link
 * #PREFIX} claims exactly the due ones. Priority is minus the next run in seconds, so the most
 * overdue is claimed first.
 */
public final class ScheduleTokens {
  /** Every schedule token is under this prefix. */
  public static final String PREFIX = "/schedule/";

  /** The owner of a schedule written by {@code apply} (Pinball's name). */
  public static final String APPLY_OWNER = "parser";

  private static final String WORKFLOW_PREFIX = PREFIX + "workflow/";
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .setVisibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
          .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.PUBLIC_ONLY)
          .setSerializationInclusion(JsonInclude.Include.NON_NULL)
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private ScheduleTokens() {}

  /** A change to write: at most one update (insert or rewrite) or one delete. Immutable. */
  public record Change(Optional<Token> update, Optional<Token> delete) {
    public static Change none() {
      return new Change(Optional.empty(), Optional.empty());
    }

    public boolean isNone() {
      return update.isEmpty() && delete.isEmpty();
    }
  }

  public static String name(String workflow) {
    return WORKFLOW_PREFIX + workflow;
  }

  /** The workflow of a schedule token's name. */
  public static String workflowOf(String tokenName) {
    if (!tokenName.startsWith(WORKFLOW_PREFIX)) {
      throw new IllegalArgumentException("not a schedule token: " + tokenName);
    }
    return tokenName.substring(WORKFLOW_PREFIX.length());
  }

  /**
   * What to write for {@code definition} given its stored schedule token ({@code stored}, if any):
   * nothing if the schedule is unchanged (Pinball's "corresponds"), an insert for a new one, a
   * rewrite (version-checked) for a changed one, a delete if the definition no longer has a
   * schedule. A rewrite keeps the next run time when only policy, limits or recipients changed, and
   * the reference time of an {@code every} schedule without {@code start}, so re-applying never
   * shifts a schedule's phase.
   */
  public static Change change(WorkflowDefinition definition, Optional<Token> stored, Instant now) {
    Optional<Schedule> schedule = definition.schedule();
    if (schedule.isEmpty()) {
      return stored.map(t -> new Change(Optional.empty(), Optional.of(t))).orElse(Change.none());
    }
    ScheduleData wanted = fromDefinition(definition, schedule.get(), now);
    if (stored.isEmpty()) {
      return new Change(
          Optional.of(
              new Token(
                  Token.NO_VERSION, name(definition.name()), APPLY_OWNER, 0, 0, write(wanted))),
          Optional.empty());
    }
    ScheduleData old;
    try {
      old = read(stored.get());
    } catch (DamagedTokenException e) {
      // Applying the definition again is how a damaged schedule is repaired: written anew.
      return new Change(
          Optional.of(
              new Token(
                  stored.get().version(), stored.get().name(), APPLY_OWNER, 0, 0, write(wanted))),
          Optional.empty());
    }
    if (old.sameDefinition(wanted)) {
      return Change.none();
    }
    if (!wanted.startGiven && old.startMillis != null && !old.startGiven) {
      wanted.startMillis = old.startMillis;
    }
    long expiration = 0;
    if (old.sameTiming(wanted) && old.nextRunMillis != null) {
      wanted.nextRunMillis = old.nextRunMillis;
      wanted.appliedMillis = old.appliedMillis;
      expiration = leaseEnd(old.nextRunMillis);
    }
    wanted.unknown().putAll(old.unknown());
    return new Change(
        Optional.of(
            new Token(
                stored.get().version(),
                stored.get().name(),
                APPLY_OWNER,
                expiration,
                priority(wanted.nextRunMillis),
                write(wanted))),
        Optional.empty());
  }

  /** The schedule data of a definition's schedule, not yet placed in time. */
  public static ScheduleData fromDefinition(
      WorkflowDefinition definition, Schedule schedule, Instant now) {
    ScheduleData data = new ScheduleData();
    data.workflow = definition.name();
    data.recurrenceMillis = schedule.every().map(Duration::toMillis).orElse(null);
    data.cron = schedule.cron().map(String::strip).orElse(null);
    data.timezone = schedule.cron().isPresent() ? schedule.timezone().getId() : null;
    data.startGiven = schedule.start().isPresent();
    data.startMillis = schedule.start().orElse(now).toEpochMilli();
    data.overrunPolicy = schedule.overrun().name();
    data.maxRunningInstances = schedule.maxRunning();
    data.catchUp = schedule.catchUp();
    data.emails = new ArrayList<>(definition.emails());
    data.appliedMillis = now.toEpochMilli();
    return data;
  }

  /**
   * Writes the schedules of {@code definitions} that changed, in one modify (one conflict, e.g. a
   * scheduler firing one of them at that moment, fails the whole batch: try again). Workflows not
   * named are left alone, as in Pinball; remove one with {@link #unschedule}. Returns the workflows
   * whose schedule was written or deleted.
   */
  public static List<String> apply(
      TokenMaster master, List<WorkflowDefinition> definitions, Instant now) {
    Map<String, Token> stored = new HashMap<>();
    for (Token token : master.query(Query.prefix(WORKFLOW_PREFIX))) {
      stored.put(workflowOf(token.name()), token);
    }
    List<Token> updates = new ArrayList<>();
    List<Token> deletes = new ArrayList<>();
    List<String> written = new ArrayList<>();
    for (WorkflowDefinition definition : definitions) {
      Change change = change(definition, Optional.ofNullable(stored.get(definition.name())), now);
      change.update().ifPresent(updates::add);
      change.delete().ifPresent(deletes::add);
      if (!change.isNone()) {
        written.add(definition.name());
      }
    }
    if (!written.isEmpty()) {
      master.modify(new ModifyParams(updates, deletes));
    }
    return written;
  }

  /**
   * Deletes the schedule of {@code workflow}; instances that exist are untouched. False if it had
   * none.
   *
   * @throws dev.flipper.token.TokenException VERSION_CONFLICT if a scheduler changed it meanwhile:
   *     try again
   */
  public static boolean unschedule(TokenMaster master, String workflow) {
    Optional<Token> token =
        master.query(Query.prefix(name(workflow))).stream()
            .filter(t -> t.name().equals(name(workflow)))
            .findFirst();
    token.ifPresent(t -> master.modify(ModifyParams.deleting(t)));
    return token.isPresent();
  }

  /**
   * The lease end of a schedule whose next run is {@code nextRunMillis}: that time, in seconds
   * rounded up.
   */
  public static long leaseEnd(long nextRunMillis) {
    return Math.floorDiv(nextRunMillis + 999, 1000);
  }

  /** Earlier next runs are claimed first; a schedule not yet placed in time comes before all. */
  public static double priority(Long nextRunMillis) {
    return nextRunMillis == null ? 0 : -Math.floorDiv(nextRunMillis, 1000);
  }

  /**
   * The schedule a token holds.
   *
   * @throws DamagedTokenException naming the token if it does not hold schedule data
   */
  public static ScheduleData read(Token token) {
    try {
      return JSON.readValue(token.data(), ScheduleData.class);
    } catch (JsonProcessingException e) {
      throw damaged(token, e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      throw damaged(token, e.getMessage());
    }
  }

  private static DamagedTokenException damaged(Token token, String problem) {
    return new DamagedTokenException(
        new DamagedToken(token.name(), "not schedule JSON: " + problem));
  }

  public static String write(ScheduleData data) {
    try {
      return JSON.writeValueAsString(data);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the schedule of " + data.workflow, e);
    }
  }
}
