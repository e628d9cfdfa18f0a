package dev.flipper.workflow.tokens;

/**
 * A signal ({@code kind: "signal"}) at global, workflow or instance scope; the action is also its
 * name.
 */
public final class SignalData extends TokenData {
  public String action;

  /** EXIT: the generation of whoever set it. */
  public Integer generation;

  /** When it was set. */
  public Long timestampMillis;

  public SignalData() {
    super("signal");
  }
}
