package dev.flipper.workflow.control;

import dev.flipper.token.Token;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.engine.internal.ConflictRetry;
import dev.flipper.workflow.engine.internal.EventData;
import dev.flipper.workflow.engine.internal.JobData;
import dev.flipper.workflow.engine.internal.Json;
import dev.flipper.workflow.engine.internal.TokenLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code poison} (Pinball §3.7): runs the given jobs and everything downstream of them again in an active
 * instance, leaving the other jobs as they are. The set S is the given jobs and their descendants, read from
 * this instance's own job tokens (Pinball read the graph of every instance of the workflow). Each input of a
 * job in S that comes from outside S and has no event waiting gets a synthetic {@code poison} event; a job of
 * S whose inputs all come from outside S becomes runnable at once, consuming one event per input; the others
 * run when their parents in S succeed. Refused if a job of S is runnable or running. An ended instance is
 * RUNNING again (within the {@link RunningLimit}). One modify. Thread-safe.
 */
final class PoisonOperation {
  private final WorkflowEngine engine;

  PoisonOperation(WorkflowEngine engine) {
    this.engine = engine;
  }

  ControlResult poison(String workflow, String instance, List<String> roots) {
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("poison needs the jobs to run again (-j JOB, repeatable)");
    }
    ControlScope scope = ControlScope.instance(workflow, instance);
    return ConflictRetry.run("poison " + scope, () -> {
      InstanceTokens tokens = InstanceTokens.require(engine.master(), workflow, instance);
      roots.forEach(tokens::job);
      Map<String, JobData> jobs = tokens.jobs();
      Set<String> set = downstream(jobs, roots);
      for (String job : set) {
        if (tokens.runnable.containsKey(job)) {
          throw new ControlRefusedException("poison refused: job " + job + " of " + scope + " is runnable or"
              + " running; every job to run again (" + set + ") must be waiting. Wait for it, or stop it");
        }
      }
      if (!tokens.isRunning()) {
        RunningLimit.check(engine, workflow, "poison of " + scope);
      }
      TokenEdit edit = new TokenEdit();
      for (String name : set) {
        Token waiting = tokens.waiting.get(name);
        JobData data = jobs.get(name);
        Map<String, List<Token>> byInput = tokens.events.getOrDefault(name, Map.of());
        boolean top = data.inputs.stream().noneMatch(set::contains);
        List<EventData> consumed = new ArrayList<>();
        List<String> ready = new ArrayList<>();
        for (String input : data.inputs) {
          List<Token> present = byInput.getOrDefault(input, List.of());
          if (top) {
            if (present.isEmpty()) {
              consumed.add(EventData.of(input, "poison", Map.of()));
            } else {
              Token oldest = present.stream().min(Comparator.comparingLong(Token::version)).orElseThrow();
              edit.delete(oldest, "consumed by " + name);
              EventData event = Json.read(oldest, EventData.class);
              event.input = input;
              consumed.add(event);
            }
          } else if (!set.contains(input) && present.isEmpty()) {
            edit.add(Token.of(TokenLayout.event(workflow, instance, name, input, "poison"),
                Json.write(EventData.of(null, "poison", Map.of()))), "poison event");
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
          edit.add(new Token(0, TokenLayout.runnable(workflow, instance, name), null, 0, waiting.priority(),
              Json.write(data)), "runs again");
        } else if (!ready.equals(data.readyInputs)) {
          data.readyInputs = ready;
          edit.update(waiting.withData(Json.write(data)), "inputs ready " + ready);
        }
      }
      tokens.revive(edit, List.copyOf(set));
      edit.commit(engine.master());
      return edit.result("poison", scope, instance);
    });
  }

  /** The roots and every job downstream of them, through the jobs' outputs. */
  private static Set<String> downstream(Map<String, JobData> jobs, List<String> roots) {
    Set<String> set = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(roots);
    while (!todo.isEmpty()) {
      String job = todo.poll();
      if (set.add(job) && jobs.containsKey(job)) {
        todo.addAll(jobs.get(job).outputs);
      }
    }
    set.retainAll(jobs.keySet());
    return set;
  }
}
