package dev.flipper.workflow.control;

import dev.flipper.token.Token;
import dev.flipper.token.TokenException;
import dev.flipper.workflow.engine.Instances;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.EventData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code poison} (docs/workflows.md, "Control operations"): runs the given jobs and everything
 * downstream of them again in an active instance, leaving the other jobs as they are. The set S is
 * the given jobs and their descendants, read from this instance's own job tokens (Pinball read the
 * graph of every instance of the workflow). Each input of a job in S that comes from outside S and
 * has no event waiting gets a synthetic {@code poison} event; a job of S whose inputs all come from
 * outside S becomes runnable at once, consuming one event per input; the others run when their
 * parents in S succeed. Refused if a job of S is runnable or running. An ended instance is RUNNING
 * again (within the {@link RunningLimit}). One modify.
 *
 * <p>An archived instance (or, with {@link #poisonNew}, the stored definition when there is no
 * instance) is not changed: a new instance is made of its graph in which only S runs ({@link
 * PoisonedCopy}), as Pinball did. Thread-safe.
 */
final class PoisonOperation {
  private static final int MAX_ID_TRIES = 1000;

  private final WorkflowEngine engine;
  private final Clock clock;
  private final ArchivedTokens archived;
  private final Instances starter;

  PoisonOperation(WorkflowEngine engine, Clock clock, ArchivedTokens archived) {
    this.engine = engine;
    this.clock = clock;
    this.archived = archived;
    this.starter = engine.instances();
  }

  ControlResult poison(String workflow, String instance, List<String> roots) {
    requireRoots(roots);
    ControlScope scope = ControlScope.instance(workflow, instance);
    return ConflictRetry.run(
        "poison " + scope,
        () -> {
          Optional<InstanceTokens> active =
              InstanceTokens.read(engine.master(), workflow, instance);
          return active.isPresent()
              ? poisonActive(active.get(), roots, scope)
              : poisonArchived(workflow, instance, roots, scope);
        });
  }

  /**
   * Poison without an instance: a new instance of the stored definition in which only the jobs
   * given and everything downstream of them run (Pinball's poison from the schedule page).
   */
  ControlResult poisonNew(String workflow, List<String> roots) {
    requireRoots(roots);
    StoredDefinition stored =
        engine
            .definitions()
            .get(workflow)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no workflow '"
                            + workflow
                            + "' in the master; store it first with: flipper workflow apply FILE"));
    RunningLimit.check(engine, workflow, "poison of " + workflow);
    return startCopy(
        ControlScope.workflow(workflow),
        workflow,
        roots,
        id -> {
          Map<String, Token> jobs = new LinkedHashMap<>();
          Token record = null;
          for (Token token : starter.startTokens(stored, id, "poison", Map.of())) {
            if (token.name().equals(TokenLayout.instanceRecord(workflow, id))) {
              record = token;
            } else {
              jobs.put(TokenLayout.last(token.name()), token);
            }
          }
          return new Source(Json.read(record, InstanceData.class), jobs, Map.of());
        });
  }

  private static void requireRoots(List<String> roots) {
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("poison needs the jobs to run again (-j JOB, repeatable)");
    }
  }

  /**
   * The archived instance's graph, jobs and history copied into a new instance where only the set
   * runs.
   */
  private ControlResult poisonArchived(
      String workflow, String instance, List<String> roots, ControlScope scope) {
    Map<String, Token> latest = new LinkedHashMap<>();
    List<Token> read =
        new ArrayList<>(archived.query(TokenLayout.instancePrefix(workflow, instance)));
    read.addAll(archived.query(TokenLayout.runnablePrefix(workflow, instance)));
    read.forEach(t -> latest.merge(t.name(), t, (a, b) -> a.version() >= b.version() ? a : b));
    Token record = latest.get(TokenLayout.instanceRecord(workflow, instance));
    if (record == null) {
      throw new IllegalArgumentException(
          "no instance "
              + scope
              + ", neither active nor archived; poison -w "
              + workflow
              + " -j JOB without -i runs the jobs in a new instance of the stored definition");
    }
    Map<String, Token> jobs = new LinkedHashMap<>();
    latest.forEach(
        (name, token) -> {
          if (name.startsWith(TokenLayout.waitingPrefix(workflow, instance))
              || name.startsWith(TokenLayout.runnablePrefix(workflow, instance))) {
            jobs.put(TokenLayout.last(name), token);
          }
        });
    RunningLimit.check(engine, workflow, "poison of " + scope);
    Source source =
        new Source(Json.read(record, InstanceData.class), jobs, Map.of("poisonOf", instance));
    return startCopy(scope, workflow, roots, id -> source);
  }

  /** What a new poisoned instance is made of. */
  private record Source(InstanceData record, Map<String, Token> jobs, Map<String, String> params) {}

  /**
   * Writes the new instance under the first free id from now (an id taken in the same millisecond:
   * the next).
   */
  private ControlResult startCopy(
      ControlScope scope, String workflow, List<String> roots, Function<String, Source> sourceFor) {
    long now = clock.millis();
    for (int i = 0; i < MAX_ID_TRIES; i++) {
      String id = Long.toString(now + i);
      Source source = sourceFor.apply(id);
      Map<String, JobData> graph = new LinkedHashMap<>();
      source.jobs().forEach((name, token) -> graph.put(name, Json.read(token, JobData.class)));
      for (String root : roots) {
        if (!graph.containsKey(root)) {
          throw new IllegalArgumentException(
              scope
                  + " has no job '"
                  + root
                  + "'; its jobs: "
                  + graph.keySet().stream().sorted().toList());
        }
      }
      TokenEdit edit =
          PoisonedCopy.tokens(
              workflow,
              id,
              source.record(),
              source.jobs(),
              RerunPlan.downstream(graph, roots),
              now,
              source.params());
      try {
        edit.commit(engine.master());
        return edit.result("poison", scope, id);
      } catch (TokenException e) {
        if (!ConflictRetry.isConflict(e)
            || InstanceTokens.read(engine.master(), workflow, id).isEmpty()) {
          throw e;
        }
      }
    }
    throw new IllegalStateException("no free instance id for " + workflow + " from " + now);
  }

  private ControlResult poisonActive(
      InstanceTokens tokens, List<String> roots, ControlScope scope) {
    String workflow = tokens.workflow;
    String instance = tokens.instance;
    roots.forEach(tokens::job);
    Map<String, JobData> jobs = tokens.jobs();
    Set<String> set = RerunPlan.downstream(jobs, roots);
    List<String> busy = RerunPlan.notWaiting(tokens, set);
    if (!busy.isEmpty()) {
      throw new ControlRefusedException(
          "poison refused: job "
              + busy.get(0)
              + " of "
              + scope
              + " is runnable or"
              + " running; every job to run again ("
              + set
              + ") must be waiting. Wait for it, or stop it");
    }
    if (!tokens.isRunning()) {
      RunningLimit.check(engine, workflow, "poison of " + scope);
    }
    TokenEdit edit = new TokenEdit();
    for (String name : set) {
      Token waiting = tokens.waiting.get(name);
      JobData data = jobs.get(name);
      Map<String, List<Token>> byInput = tokens.events.getOrDefault(name, Map.of());
      boolean top = RerunPlan.runsAtOnce(data, set);
      List<EventData> consumed = new ArrayList<>();
      List<String> ready = new ArrayList<>();
      for (String input : data.inputs) {
        List<Token> present = byInput.getOrDefault(input, List.of());
        if (top) {
          if (present.isEmpty()) {
            consumed.add(EventData.of(input, "poison", Map.of()));
          } else {
            Token oldest =
                present.stream().min(Comparator.comparingLong(Token::version)).orElseThrow();
            edit.delete(oldest, "consumed by " + name);
            EventData event = Json.read(oldest, EventData.class);
            event.input = input;
            consumed.add(event);
          }
        } else if (!set.contains(input) && present.isEmpty()) {
          edit.add(
              Token.of(
                  TokenLayout.event(workflow, instance, name, input, "poison"),
                  Json.write(EventData.of(null, "poison", Map.of()))),
              "poison event");
          ready.add(input);
        } else if (!present.isEmpty()) {
          ready.add(input);
        }
      }
      if (top) {
        data.events = consumed;
        data.attempt = 0;
        data.readyInputs = null;
        edit.delete(waiting, "");
        edit.add(
            new Token(
                0,
                TokenLayout.runnable(workflow, instance, name),
                null,
                0,
                waiting.priority(),
                Json.write(data)),
            "runs again");
      } else if (!ready.equals(data.readyInputs)) {
        data.readyInputs = ready;
        edit.update(waiting.withData(Json.write(data)), "inputs ready " + ready);
      }
    }
    tokens.revive(edit, List.copyOf(set));
    edit.commit(engine.master());
    return edit.result("poison", scope, instance);
  }
}
