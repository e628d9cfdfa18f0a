package dev.flipper.workflow.tokens;

/**
 * A token that does not parse, met where one item was asked for (an instance's page, a retry of its
 * job). Its message names the token and what is wrong with it.
 */
public class DamagedTokenException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final transient DamagedToken damage;

  public DamagedTokenException(DamagedToken damage) {
    super(damage.name() + " is damaged: " + damage.reason());
    this.damage = damage;
  }

  public DamagedToken damage() {
    return damage;
  }
}
