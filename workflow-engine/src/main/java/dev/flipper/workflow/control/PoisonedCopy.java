package dev.flipper.workflow.control;

import dev.flipper.token.Token;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.tokens.EventData;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.TokenLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The tokens of a new instance in which only the poisoned jobs run (Pinball's poison of an archived
 * instance or of a workflow without one; docs/workflows.md, "Control operations"): every job of the
 * source graph is there, the jobs outside the set S wait without events and never run (their
 * history, if any, stays for reference); each job of S gets, on every input from outside S, the
 * event its last execution consumed on it (so it runs with the same parameters), else the event it
 * holds (a root's start event), else a synthetic {@code poison} event. Jobs of S whose inputs all
 * come from outside S are runnable at once. Stateless.
 */
final class PoisonedCopy {
  private PoisonedCopy() {}

  /**
   * @param record the source instance's record; copied, not changed
   * @param jobTokens the source's job tokens (waiting or runnable) with their priorities, by job
   *     name
   * @param set the jobs to run: the roots given and everything downstream of them
   */
  static TokenEdit tokens(
      String wf,
      String id,
      InstanceData record,
      Map<String, Token> jobTokens,
      Set<String> set,
      long now,
      Map<String, String> params) {
    TokenEdit edit = new TokenEdit();
    InstanceData data = Json.copy(record, InstanceData.class);
    data.instance = id;
    data.status = InstanceStatus.RUNNING.name();
    data.startMillis = now;
    data.endMillis = null;
    data.failedJobs.clear();
    data.startedBy = "poison";
    data.params.putAll(params);
    edit.add(
        Token.of(TokenLayout.instanceRecord(wf, id), Json.write(data)),
        "new instance: poison of " + set);
    jobTokens.forEach(
        (name, token) -> {
          JobData job = Json.read(token, JobData.class);
          List<EventData> held = job.events;
          job.instance = id;
          job.attempt = 0;
          job.events = new ArrayList<>();
          if (!set.contains(name)) {
            job.readyInputs = new ArrayList<>(); // no event: it never runs here
            edit.add(
                new Token(
                    0,
                    TokenLayout.waiting(wf, id, name),
                    null,
                    0,
                    token.priority(),
                    Json.write(job)),
                "waits, not poisoned");
            return;
          }
          boolean top = job.inputs.stream().noneMatch(set::contains);
          List<String> ready = new ArrayList<>();
          for (String input : job.inputs) {
            if (set.contains(input)) {
              continue;
            }
            EventData event =
                previousEvent(job, held, input)
                    .orElseGet(() -> EventData.of(input, "poison", Map.of()));
            if (top) {
              job.events.add(event);
            } else {
              event.input = null; // the event token's name says it
              edit.add(
                  Token.of(TokenLayout.event(wf, id, name, input, "poison"), Json.write(event)),
                  "poison event");
              ready.add(input);
            }
          }
          if (top) {
            job.readyInputs = null;
            edit.add(
                new Token(
                    0,
                    TokenLayout.runnable(wf, id, name),
                    null,
                    0,
                    token.priority(),
                    Json.write(job)),
                "runs");
          } else {
            job.readyInputs = ready;
            edit.add(
                new Token(
                    0,
                    TokenLayout.waiting(wf, id, name),
                    null,
                    0,
                    token.priority(),
                    Json.write(job)),
                "runs after its parents in the poisoned set");
          }
        });
    return edit;
  }

  /** The event the job's last execution consumed on {@code input}, else the one it holds there. */
  private static Optional<EventData> previousEvent(
      JobData job, List<EventData> held, String input) {
    ExecutionData last = job.lastExecution();
    List<EventData> previous = last != null && last.events != null ? last.events : held;
    return previous.stream()
        .filter(e -> input.equals(e.input))
        .findFirst()
        .map(e -> EventData.of(input, e.creator, e.attributes));
  }
}
