package dev.flipper.workflow.worker.internal;

import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the worker process's heartbeat on the daemon's timer and, in the same round trip, looks
 * for an EXIT signal: one that asks for a generation above this worker's makes it retire (once). A
 * beat that fails (master away) is logged once and tried again at the next tick. Thread-safe.
 */
public final class HeartbeatLoop {
  /** A worker counts as dead after this many beats missed in a row. */
  public static final int MISSED_BEATS_TO_DEAD = 3;

  private static final Logger LOG = LoggerFactory.getLogger(HeartbeatLoop.class);

  /**
   * What the beat says besides the fixed parts: what runs now and whether the worker is retiring.
   */
  public record State(List<String> running, boolean retiring) {}

  private final Heartbeats heartbeats;
  private final Clock clock;
  private final String name;
  private final String host;
  private final Supplier<String> adminUrl;
  private final int generation;
  private final int slots;
  private final Duration deadAfter;
  private final Instant started;
  private final Supplier<State> state;
  private final IntConsumer retire;
  private boolean failing;

  /**
   * @param retire called with the EXIT signal's generation when it is above {@code generation}
   */
  public HeartbeatLoop(
      Heartbeats heartbeats,
      Clock clock,
      String name,
      String host,
      Supplier<String> adminUrl,
      int generation,
      int slots,
      Duration interval,
      Supplier<State> state,
      IntConsumer retire) {
    this.heartbeats = heartbeats;
    this.clock = clock;
    this.name = name;
    this.host = host;
    this.adminUrl = adminUrl;
    this.generation = generation;
    this.slots = slots;
    this.deadAfter = interval.multipliedBy(MISSED_BEATS_TO_DEAD);
    this.started = clock.instant();
    this.state = state;
    this.retire = retire;
  }

  /** One beat; never throws (it runs on a shared timer). */
  public synchronized void beat() {
    try {
      State now = state.get();
      Heartbeat beat =
          new Heartbeat(
              name,
              host,
              Optional.ofNullable(adminUrl.get()),
              generation,
              slots,
              now.running(),
              now.retiring(),
              started,
              clock.instant(),
              deadAfter);
      Optional<Integer> exit = heartbeats.beat(beat);
      if (failing) {
        LOG.info("heartbeat of {} written again", name);
        failing = false;
      }
      if (exit.isPresent() && exit.get() > generation && !now.retiring()) {
        retire.accept(exit.get());
      }
    } catch (RuntimeException e) {
      if (!failing) {
        LOG.warn("heartbeat of {} not written (tried again every beat): {}", name, e.toString());
        failing = true;
      }
    }
  }

  /**
   * Deletes the heartbeat at a clean stop; a failure is only logged (the beat then ages into
   * "dead").
   */
  public synchronized void remove() {
    try {
      heartbeats.remove(name);
    } catch (RuntimeException e) {
      LOG.warn("heartbeat of {} not removed at stop; it shows as dead: {}", name, e.toString());
    }
  }
}
