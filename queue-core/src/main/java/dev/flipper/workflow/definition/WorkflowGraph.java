package dev.flipper.workflow.definition;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The jobs of a valid workflow as a directed acyclic graph: parents ({@code needs}), children, a
 * topological order, the roots (no parents: they start with the instance), the final jobs (no
 * children: their success ends the instance) and default priorities. Lists follow the order the
 * jobs were written in. Immutable and thread-safe.
 *
 * <p><b>Default priority</b> (Pinball's rule): 1 + the number of jobs downstream of the job (its
 * children, their children, and so on, each counted once). A job on which more work waits is
 * claimed first. A {@code priority} given in the definition replaces the default for that job only.
 */
public final class WorkflowGraph {
  private final List<String> jobs;
  private final Map<String, JobDefinition> byName = new LinkedHashMap<>();
  private final Map<String, List<String>> parents = new HashMap<>();
  private final Map<String, List<String>> children = new HashMap<>();
  private final List<String> topologicalOrder;
  private final Map<String, Integer> downstreamCounts = new HashMap<>();
  private final Map<String, BitSet> downstream = new HashMap<>();

  private WorkflowGraph(List<JobDefinition> definitions) {
    List<String> names = new ArrayList<>();
    for (JobDefinition job : definitions) {
      names.add(job.name());
      byName.put(job.name(), job);
      parents.put(job.name(), job.needs());
      children.put(job.name(), new ArrayList<>());
    }
    this.jobs = List.copyOf(names);
    for (JobDefinition job : definitions) {
      for (String parent : job.needs()) {
        children.get(parent).add(job.name());
      }
    }
    children.replaceAll((name, list) -> List.copyOf(list));
    this.topologicalOrder = topologicalOrder(jobs, parents, children);
    if (topologicalOrder.size() != jobs.size()) {
      throw new IllegalStateException(
          "WorkflowGraph of a cyclic definition; indicates a bug (the validator "
              + "rejects cycles): "
              + cycles(jobs, parents));
    }
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < jobs.size(); i++) {
      index.put(jobs.get(i), i);
    }
    for (int i = topologicalOrder.size() - 1; i >= 0; i--) {
      String job = topologicalOrder.get(i);
      BitSet below = new BitSet(jobs.size());
      for (String child : children.get(job)) {
        below.set(index.get(child));
        below.or(downstream.get(child));
      }
      downstream.put(job, below);
      downstreamCounts.put(job, below.cardinality());
    }
  }

  /** The graph of {@code definition}. */
  public static WorkflowGraph of(WorkflowDefinition definition) {
    return new WorkflowGraph(definition.jobs());
  }

  /** Every job, in the order written. */
  public List<String> jobs() {
    return jobs;
  }

  /** The jobs {@code job} needs, in the order written. */
  public List<String> parents(String job) {
    return lookup(parents, job);
  }

  /** The jobs that need {@code job}, in the order the jobs were written. */
  public List<String> children(String job) {
    return lookup(children, job);
  }

  /** Jobs with no parents: each gets the instance's start event. */
  public List<String> roots() {
    return jobs.stream().filter(j -> parents.get(j).isEmpty()).toList();
  }

  /** Jobs with no children: the instance succeeds when they all have. */
  public List<String> finals() {
    return jobs.stream().filter(j -> children.get(j).isEmpty()).toList();
  }

  /**
   * Every job after all of its parents; among jobs that are ready together, the one written first.
   */
  public List<String> topologicalOrder() {
    return topologicalOrder;
  }

  /** The jobs downstream of {@code job} (children, their children, ...), in the order written. */
  public Set<String> downstream(String job) {
    BitSet bits = lookup(downstream, job);
    Set<String> result = new LinkedHashSet<>();
    bits.stream().forEach(i -> result.add(jobs.get(i)));
    return result;
  }

  /** How many jobs are downstream of {@code job}. */
  public int downstreamCount(String job) {
    return lookup(downstreamCounts, job);
  }

  /** The job's claim priority: its {@code priority} if given, else 1 + {@link #downstreamCount}. */
  public int priority(String job) {
    JobDefinition definition = lookup(byName, job);
    return definition.priority().orElse(1 + downstreamCount(job));
  }

  private static <T> T lookup(Map<String, T> map, String job) {
    T value = map.get(job);
    if (value == null) {
      throw new NoSuchElementException("no job '" + job + "' in this workflow");
    }
    return value;
  }

  /** Kahn's algorithm; fewer jobs than given means a cycle. Ties go to the job written first. */
  private static List<String> topologicalOrder(
      List<String> jobs, Map<String, List<String>> parents, Map<String, List<String>> children) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> waiting = new HashMap<>();
    PriorityQueue<String> ready =
        new PriorityQueue<>((a, b) -> Integer.compare(index.get(a), index.get(b)));
    for (int i = 0; i < jobs.size(); i++) {
      String job = jobs.get(i);
      index.put(job, i);
      waiting.put(job, new LinkedHashSet<>(parents.get(job)).size());
    }
    jobs.stream().filter(j -> waiting.get(j) == 0).forEach(ready::add);
    List<String> order = new ArrayList<>();
    while (!ready.isEmpty()) {
      String job = ready.poll();
      order.add(job);
      for (String child : new LinkedHashSet<>(children.get(job))) {
        if (waiting.merge(child, -1, Integer::sum) == 0) {
          ready.add(child);
        }
      }
    }
    return List.copyOf(order);
  }

  /**
   * Every cycle among {@code jobs}, one per group of jobs that reach each other, each listed in run
   * order from the job written first back to it: {@code [a, b, c, a]} means b needs a, c needs b
   * and a needs c. Parents that are not in {@code jobs} are ignored. For the validator; works on
   * any graph.
   */
  static List<List<String>> cycles(List<String> jobs, Map<String, List<String>> parents) {
    Map<String, List<String>> children = new LinkedHashMap<>();
    jobs.forEach(j -> children.put(j, new ArrayList<>()));
    for (String job : jobs) {
      for (String parent : parents.getOrDefault(job, List.of())) {
        if (children.containsKey(parent) && !children.get(parent).contains(job)) {
          children.get(parent).add(job);
        }
      }
    }
    Map<String, List<String>> parentsOf = new HashMap<>();
    jobs.forEach(j -> parentsOf.put(j, new ArrayList<>()));
    children.forEach((parent, kids) -> kids.forEach(kid -> parentsOf.get(kid).add(parent)));
    // Jobs left after repeatedly removing jobs without parents are on a cycle or downstream of one.
    Set<String> left = new LinkedHashSet<>(jobs);
    Set<String> done = new LinkedHashSet<>(topologicalOrder(jobs, parentsOf, children));
    left.removeAll(done);

    List<List<String>> cycles = new ArrayList<>();
    Set<String> reported = new LinkedHashSet<>();
    for (String start : left) {
      if (reported.contains(start)) {
        continue;
      }
      Set<String> component = reach(start, children, left);
      component.retainAll(reach(start, parentsOf, left));
      if (!component.contains(start)) {
        continue; // downstream of a cycle, not on one
      }
      reported.addAll(component);
      cycles.add(shortestCycle(start, children, component));
    }
    return cycles;
  }

  /** Jobs reachable from {@code from} in one or more steps, within {@code within}. */
  private static Set<String> reach(
      String from, Map<String, List<String>> edges, Set<String> within) {
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of(from));
    while (!todo.isEmpty()) {
      for (String next : edges.get(todo.poll())) {
        if (within.contains(next) && seen.add(next)) {
          todo.add(next);
        }
      }
    }
    return seen;
  }

  private static List<String> shortestCycle(
      String start, Map<String, List<String>> children, Set<String> within) {
    Map<String, String> cameFrom = new HashMap<>();
    Deque<String> todo = new ArrayDeque<>(List.of(start));
    while (!todo.isEmpty()) {
      String job = todo.poll();
      for (String child : children.get(job)) {
        if (!within.contains(child)) {
          continue;
        }
        if (child.equals(start)) {
          List<String> path = new ArrayList<>(List.of(start));
          for (String at = job; !at.equals(start); at = cameFrom.get(at)) {
            path.add(1, at);
          }
          path.add(start);
          return path;
        }
        if (!cameFrom.containsKey(child)) {
          cameFrom.put(child, job);
          todo.add(child);
        }
      }
    }
    throw new IllegalStateException(
        "no cycle through '" + start + "' in its own component; indicates a bug");
  }
}
