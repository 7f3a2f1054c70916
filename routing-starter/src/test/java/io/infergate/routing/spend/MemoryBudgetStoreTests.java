package io.infergate.routing.spend;

import java.time.ZoneOffset;
import java.util.List;

/** {@link BudgetStoreContract} for one replica's memory: its "two replicas" are one store. */
class MemoryBudgetStoreTests extends BudgetStoreContract {

	private MemoryBudgetStore store;

	@Override
	BudgetStore store(String prefix) {
		if (store == null) {
			store = new MemoryBudgetStore(ZoneOffset.UTC, listener);
		}
		return store;
	}

	@Override
	List<BudgetStore> replicas(String prefix) {
		return List.of(store(prefix), store(prefix));
	}
}
