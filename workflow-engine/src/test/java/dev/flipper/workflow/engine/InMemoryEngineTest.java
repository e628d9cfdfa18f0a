package dev.flipper.workflow.engine;

import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;

/** The engine on the in-memory token store. */
class InMemoryEngineTest extends EngineContractTest {
  @Override
  protected TokenMaster openMaster(SettableClock clock) {
    return TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
  }
}
