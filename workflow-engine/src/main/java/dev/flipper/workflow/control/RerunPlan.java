package dev.flipper.workflow.control;

import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Owners;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which jobs retry and poison run again: the rules the operations apply and their previews list, in
 * one place so the two cannot disagree.
 */
final class RerunPlan {
  private RerunPlan() {}

  /** retry: the waiting jobs whose last execution failed, in token order. */
  static List<String> failedWaiting(InstanceTokens tokens) {
    return tokens.waiting.entrySet().stream()
        .filter(e -> InstanceTokens.lastFailed(Json.read(e.getValue(), JobData.class)))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** retry of an ABORTED instance: the runnable jobs the abort holds, released again. */
  static List<String> heldAborted(InstanceTokens tokens) {
    return tokens.runnable.entrySet().stream()
        .filter(e -> Owners.ABORTED.equals(e.getValue().owner()))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** poison: the roots and every job downstream of them, through the jobs' outputs. */
  static Set<String> downstream(Map<String, JobData> jobs, Collection<String> roots) {
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

  /**
   * poison: true if none of the job's inputs is in the set, so it is runnable at once; the others
   * wait for their parents in the set.
   */
  static boolean runsAtOnce(JobData job, Set<String> set) {
    return job.inputs.stream().noneMatch(set::contains);
  }

  /** poison: the jobs of the set that are runnable or running, which make poison refuse. */
  static List<String> notWaiting(InstanceTokens tokens, Set<String> set) {
    return set.stream().filter(tokens.runnable::containsKey).toList();
  }
}
