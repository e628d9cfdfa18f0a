package dev.flipper.queue.redis.internal;

import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.CheckpointRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.StoredJob;
import dev.flipper.queue.spi.UniqueInsert;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * The state-changing job operations of one shard, each one Lua script call per priority.
 * Thread-safe.
 */
final class JobWrites {
  /**
   * Scripts that move many jobs do it in chunks of this size, so Redis is never blocked for long.
   */
  static final int CHUNK = 1000;

  /** Filtered deletes read bodies in pages of this size. */
  private static final int BODY_PAGE = 500;

  private final ShardConnection connection;
  private final KeySpace keys;
  private final Scripts scripts;

  JobWrites(ShardConnection connection, KeySpace keys, Scripts scripts) {
    this.connection = connection;
    this.keys = keys;
    this.scripts = scripts;
  }

  List<Long> enqueue(String queue, List<NewJobRecord> jobs) {
    QueueKeys q = keys.queue(queue);
    return connection.call(
        "enqueue",
        queue,
        jedis -> {
          if (jobs.isEmpty()) {
            if (!jedis.exists(q.meta())) {
              throw QueueException.queueNotFound(queue);
            }
            return List.of();
          }
          // Ids come from the shard-wide counter (another hash tag), so they stay unique and are
          // never
          // reused, even after the queue is deleted and created again. The script takes them
          // itself, so a
          // batch costs one round trip; a refused batch (no such queue) takes none.
          Args scriptKeys =
              new Args(3 + 2 * jobs.size()).add(q.meta()).add(q.priorities()).add(keys.idCounter());
          Args args = new Args(6 * jobs.size());
          for (NewJobRecord job : jobs) {
            PriorityKeys p = q.priority(job.priority());
            scriptKeys.add(p.pending()).add(p.jobPrefix());
            args.add(job.priority())
                .add(job.body())
                .add(job.attemptsAllowed())
                .add(job.customStatus())
                .add(job.createdAtMillis())
                .add(job.runAfterMillis());
          }
          long first = (Long) scripts.enqueue.eval(jedis, scriptKeys.list(), args.list());
          List<Long> ids = new ArrayList<>(jobs.size());
          for (int i = 0; i < jobs.size(); i++) {
            ids.add(first + i);
          }
          return ids;
        });
  }

  /** One script call per job (see enqueue_unique.lua), in order, so later jobs see earlier ones. */
  List<UniqueInsert> enqueueUnique(String queue, List<NewJobRecord> jobs) {
    QueueKeys q = keys.queue(queue);
    byte[] base = KeySpace.bytes(q.base());
    List<UniqueInsert> results = new ArrayList<>(jobs.size());
    for (NewJobRecord job : jobs) {
      PriorityKeys p = q.priority(job.priority());
      List<byte[]> scriptKeys =
          List.of(
              q.meta(),
              q.priorities(),
              keys.idCounter(),
              p.pending(),
              p.jobPrefix(),
              q.uniqueKey(job.uniqueKey()));
      boolean whileActive = job.uniqueUntilMillis() == NewJobRecord.WHILE_ACTIVE;
      List<byte[]> args =
          new Args(9)
              .add(job.priority())
              .add(job.body())
              .add(job.attemptsAllowed())
              .add(job.customStatus())
              .add(job.createdAtMillis())
              .add(job.runAfterMillis())
              .add(job.uniqueUntilMillis())
              .add(whileActive ? 0 : job.uniqueUntilMillis() - job.createdAtMillis())
              .add(base)
              .list();
      List<?> reply =
          (List<?>)
              connection.call(
                  "enqueue", queue, jedis -> scripts.enqueueUnique.eval(jedis, scriptKeys, args));
      results.add(
          new UniqueInsert(
              new JobRef(((Long) reply.get(1)).intValue(), (Long) reply.get(2)),
              ((Long) reply.get(0)) == 1L));
    }
    return results;
  }

  List<StoredJob> claim(String queue, int priority, int limit, Claim claim) {
    PriorityKeys p = keys.queue(queue).priority(priority);
    Object reply =
        connection.call(
            "dequeue",
            queue,
            jedis ->
                scripts.claim.eval(
                    jedis,
                    List.of(p.pending(), p.running(), p.jobPrefix()),
                    new Args(4)
                        .add(claim.nowMillis())
                        .add(limit)
                        .add(claim.descriptor())
                        .add(claim.source())
                        .list()));
    List<?> values = (List<?>) reply;
    List<StoredJob> jobs = new ArrayList<>(values.size() / 7);
    for (int i = 0; i + 6 < values.size(); i += 7) {
      jobs.add(
          new StoredJob(
              Members.parse((byte[]) values.get(i)),
              priority,
              JobState.IN_PROGRESS,
              (int) JobFields.number((byte[]) values.get(i + 2)),
              (int) JobFields.number((byte[]) values.get(i + 3)),
              JobFields.text((byte[]) values.get(i + 4)),
              JobFields.number((byte[]) values.get(i + 5)),
              JobFields.number((byte[]) values.get(i + 6)),
              claim.nowMillis(),
              claim.descriptor(),
              values.get(i + 1) == null ? new byte[0] : (byte[]) values.get(i + 1)));
    }
    return jobs;
  }

  int ackSucceeded(String queue, List<AckRecord> acks, long nowMillis) {
    QueueKeys q = keys.queue(queue);
    Map<Integer, List<AckRecord>> byPriority = byPriority(acks);
    return connection.call(
        "ack",
        queue,
        jedis -> {
          int changed = 0;
          for (Map.Entry<Integer, List<AckRecord>> group : byPriority.entrySet()) {
            PriorityKeys p = q.priority(group.getKey());
            Args scriptKeys =
                new Args(4 + group.getValue().size())
                    .add(q.meta())
                    .add(p.running())
                    .add(p.succeeded())
                    .add(p.succeededLog());
            Args args = new Args(1 + 2 * group.getValue().size()).add(nowMillis);
            for (AckRecord ack : group.getValue()) {
              byte[] member = Members.of(ack.job().localId());
              scriptKeys.add(p.job(member));
              args.add(member).add(ack.appendCustomStatus());
            }
            changed +=
                ((Long) scripts.ackSucceeded.eval(jedis, scriptKeys.list(), args.list()))
                    .intValue();
          }
          return changed;
        });
  }

  int ackFailed(String queue, List<AckRecord> acks, long nowMillis) {
    QueueKeys q = keys.queue(queue);
    Map<Integer, List<AckRecord>> byPriority = byPriority(acks);
    return connection.call(
        "ack",
        queue,
        jedis -> {
          int changed = 0;
          for (Map.Entry<Integer, List<AckRecord>> group : byPriority.entrySet()) {
            PriorityKeys p = q.priority(group.getKey());
            Args scriptKeys =
                new Args(5 + group.getValue().size())
                    .add(q.meta())
                    .add(p.running())
                    .add(p.pending())
                    .add(p.failed())
                    .add(p.failedLog());
            Args args = new Args(1 + 3 * group.getValue().size()).add(nowMillis);
            for (AckRecord ack : group.getValue()) {
              byte[] member = Members.of(ack.job().localId());
              scriptKeys.add(p.job(member));
              args.add(member).add(ack.appendCustomStatus()).add(ack.retryDelayMillis());
            }
            changed +=
                ((Long) scripts.ackFailed.eval(jedis, scriptKeys.list(), args.list())).intValue();
          }
          return changed;
        });
  }

  boolean checkpoint(String queue, String source, CheckpointRecord checkpoint, long nowMillis) {
    QueueKeys q = keys.queue(queue);
    PriorityKeys p = q.priority(checkpoint.job().priority());
    byte[] member = Members.of(checkpoint.job().localId());
    List<byte[]> scriptKeys = List.of(q.meta(), p.running(), p.pending(), p.job(member));
    List<byte[]> args =
        new Args(9)
            .add(nowMillis)
            .add(source)
            .add(member)
            .add(checkpoint.moveToPending())
            .add(checkpoint.runAfterMillis())
            .add(
                checkpoint.attemptsAllowed() == null ? "" : checkpoint.attemptsAllowed().toString())
            .add(checkpoint.prependCustomStatus() == null ? "" : checkpoint.prependCustomStatus())
            .add(checkpoint.newBody() != null)
            .add(checkpoint.newBody() == null ? new byte[0] : checkpoint.newBody())
            .list();
    Object reply =
        connection.call(
            "checkpoint", queue, jedis -> scripts.checkpoint.eval(jedis, scriptKeys, args));
    return ((Long) reply) == 1L;
  }

  int retryFailed(
      String queue,
      int priority,
      int attemptsToAllow,
      long runAfterMillis,
      int limit,
      long nowMillis) {
    QueueKeys q = keys.queue(queue);
    PriorityKeys p = q.priority(priority);
    List<byte[]> scriptKeys = List.of(q.meta(), p.failed(), p.pending(), p.jobPrefix());
    return connection.call(
        "retryFailedJobs",
        queue,
        jedis -> {
          int moved = 0;
          while (moved < limit) {
            int chunk = Math.min(CHUNK, limit - moved);
            List<?> reply =
                (List<?>)
                    scripts.retryFailed.eval(
                        jedis,
                        scriptKeys,
                        new Args(4)
                            .add(attemptsToAllow)
                            .add(runAfterMillis)
                            .add(chunk)
                            .add(nowMillis)
                            .list());
            moved += ((Long) reply.get(0)).intValue();
            if ((Long) reply.get(1) < chunk) {
              break;
            }
          }
          return moved;
        });
  }

  int deleteJobs(String queue, int priority, JobState state, BodyFilter filter, int limit) {
    QueueKeys q = keys.queue(queue);
    PriorityKeys p = q.priority(priority);
    return connection.call(
        "deleteJobs",
        queue,
        jedis ->
            filter.matchesAll()
                ? deleteFirst(jedis, q, p, state, limit)
                : deleteMatching(jedis, queue, q, p, state, filter, limit));
  }

  /**
   * Moves one job from FAILED to PENDING in one script call; false if it does not exist or is not
   * FAILED.
   */
  boolean retryJob(
      String queue, JobRef job, int attemptsToAllow, long runAfterMillis, long nowMillis) {
    QueueKeys q = keys.queue(queue);
    PriorityKeys p = q.priority(job.priority());
    byte[] member = Members.of(job.localId());
    List<byte[]> scriptKeys = List.of(q.meta(), p.failed(), p.pending(), p.job(member));
    return connection.call(
        "retryJob",
        queue,
        jedis ->
            (Long)
                    scripts.retryOne.eval(
                        jedis,
                        scriptKeys,
                        new Args(4)
                            .add(member)
                            .add(attemptsToAllow)
                            .add(runAfterMillis)
                            .add(nowMillis)
                            .list())
                == 1);
  }

  /** Deletes one job from whichever state set holds it (one script call per state until found). */
  boolean deleteJob(String queue, JobRef job) {
    QueueKeys q = keys.queue(queue);
    PriorityKeys p = q.priority(job.priority());
    byte[] member = Members.of(job.localId());
    return connection.call(
        "deleteJob",
        queue,
        jedis -> {
          for (JobState state : JobState.values()) {
            List<byte[]> scriptKeys = List.of(q.meta(), p.stateSet(state), p.job(member));
            if ((Long) scripts.deleteListed.eval(jedis, scriptKeys, List.of(member)) > 0) {
              return true;
            }
          }
          return false;
        });
  }

  private int deleteFirst(Jedis jedis, QueueKeys q, PriorityKeys p, JobState state, int limit) {
    List<byte[]> scriptKeys = List.of(q.meta(), p.stateSet(state), p.jobPrefix());
    int deleted = 0;
    while (deleted < limit) {
      int chunk = Math.min(CHUNK, limit - deleted);
      List<?> reply =
          (List<?>) scripts.deleteFirst.eval(jedis, scriptKeys, new Args(1).add(chunk).list());
      deleted += ((Long) reply.get(0)).intValue();
      if ((Long) reply.get(1) < chunk) {
        break;
      }
    }
    return deleted;
  }

  /**
   * Reads bodies page by page, matches them in Java, and deletes the matches (if still in the
   * state).
   */
  private int deleteMatching(
      Jedis jedis,
      String queue,
      QueueKeys q,
      PriorityKeys p,
      JobState state,
      BodyFilter filter,
      int limit) {
    if (!jedis.exists(q.meta())) {
      throw QueueException.queueNotFound(queue);
    }
    byte[] set = p.stateSet(state);
    int deleted = 0;
    long offset = 0;
    while (deleted < limit) {
      List<byte[]> members = jedis.zrange(set, offset, offset + BODY_PAGE - 1);
      if (members.isEmpty()) {
        break;
      }
      List<byte[]> bodies = bodies(jedis, p, members);
      Args scriptKeys = new Args(8).add(q.meta()).add(set);
      Args args = new Args(8);
      int selected = 0;
      for (int i = 0; i < members.size(); i++) {
        byte[] body = bodies.get(i);
        // A member without a hash (evicted) is removed from the index too; it does not count.
        boolean match = body != null && deleted + selected < limit && filter.matches(body);
        if (match || body == null) {
          scriptKeys.add(p.job(members.get(i)));
          args.add(members.get(i));
          selected += match ? 1 : 0;
        }
      }
      int removed = args.list().size();
      if (removed > 0) {
        deleted +=
            ((Long) scripts.deleteListed.eval(jedis, scriptKeys.list(), args.list())).intValue();
      }
      if (members.size() < BODY_PAGE) {
        break;
      }
      offset += members.size() - removed;
    }
    return deleted;
  }

  static List<byte[]> bodies(Jedis jedis, PriorityKeys p, List<byte[]> members) {
    Pipeline pipeline = jedis.pipelined();
    List<Response<byte[]>> responses = new ArrayList<>(members.size());
    for (byte[] member : members) {
      responses.add(pipeline.hget(p.job(member), JobFields.BODY));
    }
    pipeline.sync();
    List<byte[]> bodies = new ArrayList<>(members.size());
    for (Response<byte[]> response : responses) {
      bodies.add(response.get());
    }
    return bodies;
  }

  private static Map<Integer, List<AckRecord>> byPriority(List<AckRecord> acks) {
    Map<Integer, List<AckRecord>> groups = new LinkedHashMap<>();
    for (AckRecord ack : acks) {
      groups.computeIfAbsent(ack.job().priority(), k -> new ArrayList<>()).add(ack);
    }
    return groups;
  }
}
