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

/**
 * The read-only job operations of one shard: plain commands, pipelines and one read-only script
 * that pages a run-after index by key. Reads that page through a set are not one snapshot; each job
 * they return was read atomically. Body-filtered reads evaluate the filter between pages, with no
 * pooled connection held, so a slow regex cannot take the pool (its budgets are the {@link
 * BodyFilter}'s). Thread-safe.
 */
final class JobReads {
  /** Count and scan read candidates in pages of this size. */
  private static final int PAGE = 500;

  private static final byte[] MINUS_INFINITY = ascii("-inf");
  private static final byte[] PLUS_INFINITY = ascii("+inf");

  /** Read-only, so kept here rather than in {@link Scripts}; EVALSHA loads it on first use. */
  private static final LuaScript PAGE_BEFORE = LuaScript.named("page_before");

  private final ShardConnection connection;
  private final KeySpace keys;

  JobReads(ShardConnection connection, KeySpace keys) {
    this.connection = connection;
    this.keys = keys;
  }

  List<StoredJob> peek(String queue, int priority, int limit, long nowMillis) {
    PriorityKeys p = keys.queue(queue).priority(priority);
    return connection.call(
        "dequeue (dry run)",
        queue,
        jedis -> {
          List<byte[]> members =
              jedis.zrangeByScore(
                  p.pending(), MINUS_INFINITY, JobFields.ascii(nowMillis), 0, limit);
          List<List<byte[]>> values = fetch(jedis, p, members, JobFields.INFO_AND_BODY);
          List<StoredJob> jobs = new ArrayList<>(members.size());
          for (int i = 0; i < members.size(); i++) {
            StoredJob job =
                JobFields.decode(Members.parse(members.get(i)), priority, values.get(i));
            // Skipped: a hash that is gone (evicted, or deleted since the range was read) or moved
            // on.
            if (job != null && job.state() == JobState.PENDING) {
              jobs.add(job);
            }
          }
          return jobs;
        });
  }

  Optional<StoredJob> lookup(String queue, JobRef ref, boolean includeBody) {
    PriorityKeys p = keys.queue(queue).priority(ref.priority());
    List<byte[]> values =
        connection.call(
            "lookup",
            queue,
            jedis ->
                jedis.hmget(
                    p.job(ref.localId()), includeBody ? JobFields.INFO_AND_BODY : JobFields.INFO));
    return Optional.ofNullable(JobFields.decode(ref.localId(), ref.priority(), values));
  }

  int count(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      int cap) {
    QueueKeys q = keys.queue(queue);
    PriorityKeys p = q.priority(priority);
    byte[] min = future ? ascii("(" + nowMillis) : MINUS_INFINITY;
    byte[] max = future ? PLUS_INFINITY : JobFields.ascii(nowMillis);
    if (!PriorityKeys.scoredByRunAfter(state)) {
      List<Entry> running =
          connection.call(
              "count",
              queue,
              jedis -> {
                requireQueue(jedis, q, queue);
                return running(jedis, p).stream()
                    .filter(
                        entry -> future ? entry.runAfter > nowMillis : entry.runAfter <= nowMillis)
                    .toList();
              });
      if (filter.matchesAll()) {
        return Math.min(running.size(), cap);
      }
      int matches = 0;
      for (int from = 0; from < running.size() && matches < cap; from += PAGE) {
        List<byte[]> members =
            running.subList(from, Math.min(running.size(), from + PAGE)).stream()
                .map(Entry::member)
                .toList();
        List<byte[]> bodies =
            connection.call("count", queue, jedis -> JobWrites.bodies(jedis, p, members));
        matches += countMatches(bodies, filter, cap - matches);
      }
      return matches;
    }
    byte[] index = p.stateSet(state);
    if (filter.matchesAll()) {
      return connection.call(
          "count",
          queue,
          jedis -> {
            requireQueue(jedis, q, queue);
            return (int) Math.min(jedis.zcount(index, min, max), cap);
          });
    }
    int matches = 0;
    ScanBound bound = ScanBound.START;
    while (matches < cap) {
      ScanBound from = bound;
      List<Candidate> page =
          connection.call(
              "count",
              queue,
              jedis -> {
                if (from == ScanBound.START) {
                  requireQueue(jedis, q, queue);
                }
                List<Entry> entries = pageBefore(jedis, index, min, max, from, PAGE);
                List<byte[]> bodies =
                    JobWrites.bodies(jedis, p, entries.stream().map(Entry::member).toList());
                return Candidate.zip(
                    entries,
                    bodies.stream().map(body -> body == null ? null : List.of(body)).toList());
              });
      // The connection is back in the pool: a slow filter holds none.
      matches +=
          countMatches(
              page.stream().map(c -> c.values == null ? null : c.values.get(0)).toList(),
              filter,
              cap - matches);
      if (page.size() < PAGE) {
        break;
      }
      bound = page.get(page.size() - 1).entry.bound();
    }
    return matches;
  }

  List<StoredJob> scan(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      ScanBound after,
      int limit) {
    QueueKeys q = keys.queue(queue);
    PriorityKeys p = q.priority(priority);
    byte[] min = future ? ascii("(" + nowMillis) : MINUS_INFINITY;
    byte[] max = future ? PLUS_INFINITY : JobFields.ascii(nowMillis);
    byte[][] fields = filter.matchesAll() ? JobFields.INFO : JobFields.INFO_AND_BODY;
    int pageSize = filter.matchesAll() ? Math.min(Math.max(limit * 2, 64), 1000) : PAGE;
    List<StoredJob> jobs = new ArrayList<>(Math.min(limit, pageSize));
    if (!PriorityKeys.scoredByRunAfter(state)) {
      List<Entry> running =
          connection.call(
              "scan",
              queue,
              jedis -> {
                requireQueue(jedis, q, queue);
                List<Entry> entries = new ArrayList<>();
                for (Entry entry : running(jedis, p)) {
                  boolean inRange =
                      future ? entry.runAfter > nowMillis : entry.runAfter <= nowMillis;
                  if (inRange && after.admits(entry.runAfter, entry.localId)) {
                    entries.add(entry);
                  }
                }
                return entries;
              });
      List<Entry> sorted = new ArrayList<>(running);
      sorted.sort(SCAN_ORDER);
      for (int from = 0; from < sorted.size() && jobs.size() < limit; from += pageSize) {
        List<Entry> entries = sorted.subList(from, Math.min(sorted.size(), from + pageSize));
        List<Candidate> page =
            connection.call(
                "scan",
                queue,
                jedis ->
                    Candidate.zip(
                        entries,
                        fetch(jedis, p, entries.stream().map(Entry::member).toList(), fields)));
        collect(p, state, filter, page, jobs, limit);
      }
      return jobs;
    }
    byte[] index = p.stateSet(state);
    ScanBound bound = after;
    boolean first = true;
    while (jobs.size() < limit) {
      ScanBound from = bound;
      boolean checkQueue = first;
      List<Candidate> page =
          connection.call(
              "scan",
              queue,
              jedis -> {
                if (checkQueue) {
                  requireQueue(jedis, q, queue);
                }
                List<Entry> entries = pageBefore(jedis, index, min, max, from, pageSize);
                return Candidate.zip(
                    entries, fetch(jedis, p, entries.stream().map(Entry::member).toList(), fields));
              });
      // The connection is back in the pool: a slow filter holds none.
      collect(p, state, filter, page, jobs, limit);
      if (page.size() < pageSize) {
        break;
      }
      bound = page.get(page.size() - 1).entry.bound();
      first = false;
    }
    return jobs;
  }

  /**
   * Up to {@code size} members of a run-after index in scan order, strictly after {@code bound} and
   * with a score in [min, max]: keyset paging (see page_before.lua), so paging through N jobs reads
   * each once.
   */
  private List<Entry> pageBefore(
      Jedis jedis, byte[] index, byte[] min, byte[] max, ScanBound bound, int size) {
    byte[] boundScore =
        bound.equals(ScanBound.START) ? new byte[0] : JobFields.ascii(bound.runAfterMillis());
    // A negative id admits no job at the bound's run-after: no member sorts below "".
    byte[] boundMember = bound.localId() < 0 ? new byte[0] : Members.of(bound.localId());
    List<?> reply =
        (List<?>)
            PAGE_BEFORE.eval(
                jedis,
                List.of(index),
                List.of(min, max, boundScore, boundMember, JobFields.ascii(size)));
    List<Entry> entries = new ArrayList<>(reply.size() / 2);
    for (int i = reply.size() - 2; i >= 0; i -= 2) {
      byte[] member = (byte[]) reply.get(i);
      long score =
          (long)
              Double.parseDouble(new String((byte[]) reply.get(i + 1), StandardCharsets.US_ASCII));
      entries.add(new Entry(member, Members.parse(member), score));
    }
    return entries;
  }

  /** A candidate with the fields read from its hash (null if the hash is gone). */
  private record Candidate(Entry entry, List<byte[]> values) {
    static List<Candidate> zip(List<Entry> entries, List<List<byte[]>> values) {
      List<Candidate> candidates = new ArrayList<>(entries.size());
      for (int i = 0; i < entries.size(); i++) {
        candidates.add(new Candidate(entries.get(i), values.get(i)));
      }
      return candidates;
    }
  }

  /** A job member with its id and run-after, as an index or the job's hash gave it. */
  private record Entry(byte[] member, long localId, long runAfter) {
    ScanBound bound() {
      return new ScanBound(runAfter, localId);
    }
  }

  /** Scan order: run-after descending, then local id descending. */
  private static final java.util.Comparator<Entry> SCAN_ORDER =
      java.util.Comparator.comparingLong(Entry::runAfter)
          .thenComparingLong(Entry::localId)
          .reversed();

  /**
   * Adds to {@code jobs}, in candidate order and up to {@code limit}, the candidates still in the
   * state with the same run-after whose body matches. Called with no connection held.
   */
  private static void collect(
      PriorityKeys p,
      JobState state,
      BodyFilter filter,
      List<Candidate> candidates,
      List<StoredJob> jobs,
      int limit) {
    for (int i = 0; i < candidates.size() && jobs.size() < limit; i++) {
      Candidate candidate = candidates.get(i);
      StoredJob job = JobFields.decode(candidate.entry.localId, p.priority(), candidate.values);
      // Skipped: gone, moved to another state or re-scheduled since the range was read.
      if (job == null || job.state() != state || job.runAfterMillis() != candidate.entry.runAfter) {
        continue;
      }
      if (filter.matchesAll() || filter.matches(job.body())) {
        jobs.add(withoutBody(job));
      }
    }
  }

  /**
   * Every running job with its run-after (from the hashes; the running set is scored by
   * updated-at).
   */
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
          entries.add(
              new Entry(members.get(i), Members.parse(members.get(i)), JobFields.number(runAfter)));
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
  private static List<List<byte[]>> fetch(
      Jedis jedis, PriorityKeys p, List<byte[]> members, byte[][] fields) {
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
    return job.body() == null
        ? job
        : new StoredJob(
            job.localId(),
            job.priority(),
            job.state(),
            job.attemptsAllowed(),
            job.attemptsRemaining(),
            job.customStatus(),
            job.createdAtMillis(),
            job.runAfterMillis(),
            job.updatedAtMillis(),
            job.claimDescriptor(),
            null);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
