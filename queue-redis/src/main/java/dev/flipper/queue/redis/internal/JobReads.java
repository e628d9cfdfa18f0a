package dev.flipper.queue.redis.internal;

import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.StoredJob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.resps.Tuple;

/**
 * The read-only job operations of one shard: plain commands and pipelines, no scripts. Reads that page
 * through a set are not one snapshot; each job they return was read atomically. Thread-safe.
 */
final class JobReads {
  /** Count and scan read candidates in pages of this size. */
  private static final int PAGE = 500;
  private static final byte[] MINUS_INFINITY = ascii("-inf");
  private static final byte[] PLUS_INFINITY = ascii("+inf");

  private final ShardConnection connection;
  private final KeySpace keys;

  JobReads(ShardConnection connection, KeySpace keys) {
    this.connection = connection;
    this.keys = keys;
  }

  List<StoredJob> peek(String queue, int priority, int limit, long nowMillis) {
    PriorityKeys p = keys.queue(queue).priority(priority);
    return connection.call("dequeue (dry run)", queue, jedis -> {
      List<byte[]> members = jedis.zrangeByScore(p.pending(), MINUS_INFINITY, JobFields.ascii(nowMillis), 0, limit);
      List<List<byte[]>> values = fetch(jedis, p, members, JobFields.INFO_AND_BODY);
      List<StoredJob> jobs = new ArrayList<>(members.size());
      for (int i = 0; i < members.size(); i++) {
        StoredJob job = JobFields.decode(Members.parse(members.get(i)), priority, values.get(i));
        // Skipped: a hash that is gone (evicted, or deleted since the range was read) or moved on.
        if (job != null && job.state() == JobState.PENDING) {
          jobs.add(job);
        }
      }
      return jobs;
    });
  }

  Optional<StoredJob> lookup(String queue, JobRef ref, boolean includeBody) {
    PriorityKeys p = keys.queue(queue).priority(ref.priority());
    List<byte[]> values = connection.call("lookup", queue,
        jedis -> jedis.hmget(p.job(ref.localId()), includeBody ? JobFields.INFO_AND_BODY : JobFields.INFO));
    return Optional.ofNullable(JobFields.decode(ref.localId(), ref.priority(), values));
  }

  int count(String queue, int priority, JobState state, boolean future, BodyFilter filter, long nowMillis, int cap) {
    QueueKeys q = keys.queue(queue);
    PriorityKeys p = q.priority(priority);
    byte[] index = PriorityKeys.scoredByRunAfter(state) ? p.stateSet(state) : null;
    byte[] min = future ? ascii("(" + nowMillis) : MINUS_INFINITY;
    byte[] max = future ? PLUS_INFINITY : JobFields.ascii(nowMillis);
    return connection.call("count", queue, jedis -> {
      requireQueue(jedis, q, queue);
      if (index == null) {
        List<Entry> running = new ArrayList<>();
        for (Entry entry : running(jedis, p)) {
          if (future ? entry.runAfter > nowMillis : entry.runAfter <= nowMillis) {
            running.add(entry);
          }
        }
        if (filter.matchesAll()) {
          return Math.min(running.size(), cap);
        }
        int matches = 0;
        for (int from = 0; from < running.size() && matches < cap; from += PAGE) {
          List<byte[]> members = running.subList(from, Math.min(running.size(), from + PAGE)).stream()
              .map(Entry::member).toList();
          matches += countMatches(JobWrites.bodies(jedis, p, members), filter, cap - matches);
        }
        return matches;
      }
      if (filter.matchesAll()) {
        return (int) Math.min(jedis.zcount(index, min, max), cap);
      }
      int matches = 0;
      for (int offset = 0; matches < cap; offset += PAGE) {
        List<byte[]> members = jedis.zrangeByScore(index, min, max, offset, PAGE);
        matches += countMatches(JobWrites.bodies(jedis, p, members), filter, cap - matches);
        if (members.size() < PAGE) {
          break;
        }
      }
      return matches;
    });
  }

  List<StoredJob> scan(String queue, int priority, JobState state, boolean future, BodyFilter filter,
      long nowMillis, ScanBound after, int limit) {
    QueueKeys q = keys.queue(queue);
    PriorityKeys p = q.priority(priority);
    byte[] index = PriorityKeys.scoredByRunAfter(state) ? p.stateSet(state) : null;
    byte[] min = future ? ascii("(" + nowMillis) : MINUS_INFINITY;
    // Inclusive: jobs at exactly the bound's run-after may still have smaller ids.
    long maxScore = future ? after.runAfterMillis() : Math.min(nowMillis, after.runAfterMillis());
    byte[] max = JobFields.ascii(maxScore);
    int page = Math.min(Math.max(limit * 2, 64), 1000);
    return connection.call("scan", queue, jedis -> {
      requireQueue(jedis, q, queue);
      List<StoredJob> jobs = new ArrayList<>(Math.min(limit, page));
      if (index == null) {
        List<Entry> running = new ArrayList<>();
        for (Entry entry : running(jedis, p)) {
          boolean inRange = future ? entry.runAfter > nowMillis : entry.runAfter <= nowMillis;
          if (inRange && after.admits(entry.runAfter, entry.localId)) {
            running.add(entry);
          }
        }
        running.sort(SCAN_ORDER);
        for (int from = 0; from < running.size() && jobs.size() < limit; from += page) {
          collect(jedis, p, state, filter, running.subList(from, Math.min(running.size(), from + page)), jobs, limit);
        }
        return jobs;
      }
      for (int offset = 0; jobs.size() < limit; offset += page) {
        List<Tuple> tuples = jedis.zrevrangeByScoreWithScores(index, max, min, offset, page);
        List<Entry> candidates = new ArrayList<>(tuples.size());
        for (Tuple tuple : tuples) {
          Entry entry = new Entry(tuple.getBinaryElement(), Members.parse(tuple.getBinaryElement()),
              (long) tuple.getScore());
          if (after.admits(entry.runAfter, entry.localId)) {
            candidates.add(entry);
          }
        }
        collect(jedis, p, state, filter, candidates, jobs, limit);
        if (tuples.size() < page) {
          break;
        }
      }
      return jobs;
    });
  }

  /** A job member with its id and run-after, as an index or the job's hash gave it. */
  private record Entry(byte[] member, long localId, long runAfter) {}

  /** Scan order: run-after descending, then local id descending. */
  private static final java.util.Comparator<Entry> SCAN_ORDER =
      java.util.Comparator.comparingLong(Entry::runAfter).thenComparingLong(Entry::localId).reversed();

  /**
   * Reads the candidates' hashes and adds to {@code jobs}, in candidate order and up to {@code limit}, those
   * still in the state with the same run-after whose body matches.
   */
  private static void collect(Jedis jedis, PriorityKeys p, JobState state, BodyFilter filter, List<Entry> candidates,
      List<StoredJob> jobs, int limit) {
    byte[][] fields = filter.matchesAll() ? JobFields.INFO : JobFields.INFO_AND_BODY;
    List<List<byte[]>> values = fetch(jedis, p, candidates.stream().map(Entry::member).toList(), fields);
    for (int i = 0; i < candidates.size() && jobs.size() < limit; i++) {
      Entry candidate = candidates.get(i);
      StoredJob job = JobFields.decode(candidate.localId, p.priority(), values.get(i));
      // Skipped: gone, moved to another state or re-scheduled since the range was read.
      if (job == null || job.state() != state || job.runAfterMillis() != candidate.runAfter) {
        continue;
      }
      if (filter.matchesAll() || filter.matches(job.body())) {
        jobs.add(withoutBody(job));
      }
    }
  }

  /** Every running job with its run-after (from the hashes; the running set is scored by updated-at). */
  private static List<Entry> running(Jedis jedis, PriorityKeys p) {
    List<Entry> entries = new ArrayList<>();
    for (long offset = 0; ; offset += PAGE) {
      List<byte[]> members = jedis.zrange(p.running(), offset, offset + PAGE - 1);
      Pipeline pipeline = jedis.pipelined();
      List<Response<byte[]>> runAfters = new ArrayList<>(members.size());
      for (byte[] member : members) {
        runAfters.add(pipeline.hget(p.job(member), JobFields.RUN_AFTER));
      }
      pipeline.sync();
      for (int i = 0; i < members.size(); i++) {
        byte[] runAfter = runAfters.get(i).get();
        if (runAfter != null) {
          entries.add(new Entry(members.get(i), Members.parse(members.get(i)), JobFields.number(runAfter)));
        }
      }
      if (members.size() < PAGE) {
        return entries;
      }
    }
  }

  private static int countMatches(List<byte[]> bodies, BodyFilter filter, int cap) {
    int matches = 0;
    for (byte[] body : bodies) {
      if (body != null && filter.matches(body) && ++matches == cap) {
        break;
      }
    }
    return matches;
  }

  private static void requireQueue(Jedis jedis, QueueKeys q, String queue) {
    if (!jedis.exists(q.meta())) {
      throw QueueException.queueNotFound(queue);
    }
  }

  /** HMGET of the fields of each member's hash, in one round trip. */
  private static List<List<byte[]>> fetch(Jedis jedis, PriorityKeys p, List<byte[]> members, byte[][] fields) {
    if (members.isEmpty()) {
      return List.of();
    }
    Pipeline pipeline = jedis.pipelined();
    List<Response<List<byte[]>>> responses = new ArrayList<>(members.size());
    for (byte[] member : members) {
      responses.add(pipeline.hmget(p.job(member), fields));
    }
    pipeline.sync();
    List<List<byte[]>> values = new ArrayList<>(members.size());
    for (Response<List<byte[]>> response : responses) {
      values.add(response.get());
    }
    return values;
  }

  private static StoredJob withoutBody(StoredJob job) {
    return job.body() == null ? job : new StoredJob(job.localId(), job.priority(), job.state(),
        job.attemptsAllowed(), job.attemptsRemaining(), job.customStatus(), job.createdAtMillis(),
        job.runAfterMillis(), job.updatedAtMillis(), job.claimDescriptor(), null);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
