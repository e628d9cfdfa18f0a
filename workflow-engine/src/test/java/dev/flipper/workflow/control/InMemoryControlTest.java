package dev.flipper.workflow.control;

import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.engine.SettableClock;

/** The control operations on the in-memory token store. */
class InMemoryControlTest extends ControlContractTest {
  @Override
  protected TokenMaster openMaster(SettableClock clock) {
    return TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
  }
}
