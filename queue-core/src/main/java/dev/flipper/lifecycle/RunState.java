package dev.flipper.lifecycle;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The start-once state of a daemon or server: NEW, then RUNNING after {@link #start()}, then CLOSED
 * for good. Replaces the copy of this state machine that each daemon and server used to keep.
 * Thread-safe.
 */
public final class RunState {
  /** The states, in the only order they are taken. */
  public enum State {
    NEW,
    RUNNING,
    CLOSED
  }

  private final String name;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);

  /**
   * @param name what runs, for the error message, e.g. {@code "queue server"}
   */
  public RunState(String name) {
    this.name = name;
  }

  /** NEW to RUNNING; IllegalStateException naming the state if it was started or closed before. */
  public void start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException(name + " can be started once; it is " + state.get());
    }
  }

  /**
   * Moves to CLOSED; true only for the one call that closed a RUNNING instance, which then stops
   * its parts (so close is idempotent and a failed or never started instance has nothing to stop).
   */
  public boolean close() {
    return state.getAndSet(State.CLOSED) == State.RUNNING;
  }

  public boolean isRunning() {
    return state.get() == State.RUNNING;
  }

  public State get() {
    return state.get();
  }

  @Override
  public String toString() {
    return name + " " + state.get();
  }
}
