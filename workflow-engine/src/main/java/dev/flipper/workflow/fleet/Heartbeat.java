package dev.flipper.workflow.fleet;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one worker process last said about itself (token {@code /worker/<name>}, see {@link
 * Heartbeats}). Immutable.
 *
 * @param name the process's unique name, {@code <host>-<pid>-<random>}; its slots' names (the job
 *     owners) are {@code <host>-<pid>-<slot>-<random>}
 * @param host the host it runs on
 * @param adminUrl its admin port (job logs under {@code /logs/}), e.g. {@code http://host7:9093};
 *     empty if none
 * @param generation its {@code workers.generation}
 * @param slots how many jobs it may run at once
 * @param running the jobs it runs now, as {@code <workflow>/<instance>/<job>}
 * @param retiring true once it obeys an EXIT signal: it claims nothing more and exits after {@code
 *     running}
 * @param started when the process started
 * @param beat when it wrote this
 * @param deadAfter how old this may get before the worker counts as dead (a few beats missed)
 */
public record Heartbeat(
    String name,
    String host,
    Optional<String> adminUrl,
    int generation,
    int slots,
    List<String> running,
    boolean retiring,
    Instant started,
    Instant beat,
    Duration deadAfter) {
  public Heartbeat {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(adminUrl, "adminUrl");
    running = List.copyOf(running);
    Objects.requireNonNull(started, "started");
    Objects.requireNonNull(beat, "beat");
    Objects.requireNonNull(deadAfter, "deadAfter");
  }

  /** True if the last beat is at most {@code deadAfter} old at {@code now}. */
  public boolean aliveAt(Instant now) {
    return age(now).compareTo(deadAfter) <= 0;
  }

  /** How long ago the last beat was (zero if the clocks disagree the other way). */
  public Duration age(Instant now) {
    Duration age = Duration.between(beat, now);
    return age.isNegative() ? Duration.ZERO : age;
  }

  /**
   * True if {@code owner}, a job's lease owner, is one of this process's slots: {@code
   * <host>-<pid>-<slot>-<random>} for the process {@code <host>-<pid>-<random>}.
   */
  public boolean ownsSlot(String owner) {
    int cut = name.lastIndexOf('-');
    if (owner == null || cut < 0) {
      return false;
    }
    String prefix = name.substring(0, cut + 1);
    String suffix = name.substring(cut);
    if (!owner.startsWith(prefix)
        || !owner.endsWith(suffix)
        || owner.length() <= prefix.length() + suffix.length()) {
      return false;
    }
    return owner
        .substring(prefix.length(), owner.length() - suffix.length())
        .chars()
        .allMatch(Character::isDigit);
  }

  /** True if every slot runs a job. */
  public boolean busy() {
    return running.size() >= slots;
  }

  /**
   * True if it takes new jobs when an EXIT signal asks for {@code exitGeneration} (empty = no
   * EXIT).
   */
  public boolean takesWork(Optional<Integer> exitGeneration) {
    return !retiring && exitGeneration.map(g -> generation >= g).orElse(true);
  }
}
