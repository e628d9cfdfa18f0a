package dev.flipper.token.memory;

import dev.flipper.token.contract.TokenStoreContractTest;
import dev.flipper.token.spi.TokenStore;

/** The token storage contract over {@link InMemoryTokenStore}. */
class InMemoryTokenStoreContractTest extends TokenStoreContractTest {
  private InMemoryTokenStore store;

  @Override
  protected TokenStore openStore() {
    store = InMemoryTokenStore.create();
    return store;
  }

  @Override
  protected TokenStore openStoreOverSameStorage() {
    return store.sharingStorage();
  }
}
