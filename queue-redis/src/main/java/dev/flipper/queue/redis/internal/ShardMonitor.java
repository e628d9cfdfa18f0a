package dev.flipper.queue.redis.internal;

import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.spi.MonitorCounts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.Jedis;

/**
 * The queue monitor's primitives for one shard: claim time-out and garbage collection over every
 * queue and priority, one bounded script call at a time. Several monitors may run at once: each job
 * moves once. Thread-safe.
 */
final class ShardMonitor {
  private final ShardConnection connection;
  private final KeySpace keys;
  private final Scripts scripts;

  ShardMonitor(ShardConnection connection, KeySpace keys, Scripts scripts) {
    this.connection = connection;
    this.keys = keys;
    this.scripts = scripts;
  }

  MonitorCounts timeOutClaims(long claimedBefore, int maxJobs, long nowMillis) {
    return connection.call(
        "claim time-out",
        null,
        jedis -> {
          Map<String, Integer> retried = new HashMap<>();
          Map<String, Integer> failed = new HashMap<>();
          int budget = maxJobs;
          for (String queue : shuffledQueues(jedis)) {
            QueueKeys q = keys.queue(queue);
            for (int priority : priorities(jedis, q)) {
              PriorityKeys p = q.priority(priority);
              List<byte[]> scriptKeys =
                  List.of(p.running(), p.pending(), p.failed(), p.failedLog(), p.jobPrefix());
              while (budget > 0) {
                int chunk = Math.min(JobWrites.CHUNK, budget);
                List<?> reply =
                    (List<?>)
                        scripts.timeOutClaims.eval(
                            jedis,
                            scriptKeys,
                            new Args(3).add(claimedBefore).add(chunk).add(nowMillis).list());
                addTo(retried, queue, (Long) reply.get(0));
                addTo(failed, queue, (Long) reply.get(1));
                long examined = (Long) reply.get(2);
                budget -= (int) examined;
                if (examined < chunk) {
                  break;
                }
              }
            }
          }
          return new MonitorCounts(retried, failed);
        });
  }

  Map<String, Integer> deleteFinished(JobState state, long enteredBefore, int maxJobs) {
    if (!state.isFinished()) {
      throw QueueException.invalid(
          "garbage collection deletes SUCCEEDED or FAILED jobs, not " + state);
    }
    return connection.call(
        "garbage collection of " + state + " jobs",
        null,
        jedis -> {
          Map<String, Integer> deleted = new HashMap<>();
          int budget = maxJobs;
          for (String queue : shuffledQueues(jedis)) {
            QueueKeys q = keys.queue(queue);
            for (int priority : priorities(jedis, q)) {
              PriorityKeys p = q.priority(priority);
              List<byte[]> scriptKeys = List.of(p.stateSet(state), p.log(state), p.jobPrefix());
              while (budget > 0) {
                int chunk = Math.min(JobWrites.CHUNK, budget);
                List<?> reply =
                    (List<?>)
                        scripts.deleteFinished.eval(
                            jedis,
                            scriptKeys,
                            new Args(3).add(enteredBefore).add(chunk).add(state.code()).list());
                addTo(deleted, queue, (Long) reply.get(0));
                long examined = (Long) reply.get(1);
                budget -= (int) examined;
                if (examined < chunk) {
                  break;
                }
              }
            }
          }
          return deleted;
        });
  }

  /** Random order, so a small budget does not always serve the same queues first. */
  private List<String> shuffledQueues(Jedis jedis) {
    List<String> queues = new ArrayList<>(queueNames(jedis, keys));
    Collections.shuffle(queues);
    return queues;
  }

  static Set<String> queueNames(Jedis jedis, KeySpace keys) {
    Set<String> names = new java.util.TreeSet<>();
    for (byte[] name : jedis.smembers(keys.queueRegistry())) {
      names.add(new String(name, StandardCharsets.UTF_8));
    }
    return names;
  }

  static List<Integer> priorities(Jedis jedis, QueueKeys q) {
    List<Integer> priorities = new ArrayList<>();
    for (byte[] priority : jedis.smembers(q.priorities())) {
      priorities.add((int) JobFields.number(priority));
    }
    Collections.sort(priorities);
    return priorities;
  }

  private static void addTo(Map<String, Integer> counts, String queue, long n) {
    if (n > 0) {
      counts.merge(queue, (int) n, Integer::sum);
    }
  }
}
