package io.infergate.gateway.discovery;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

/**
 * An informer handler that runs {@code action} on every change it reports (added, updated, deleted), for watchers
 * that recompute their view from the informer's cache rather than apply each change.
 */
public record AnyChange<T>(Runnable action) implements ResourceEventHandler<T> {

	@Override
	public void onAdd(T resource) {
		action.run();
	}

	@Override
	public void onUpdate(T before, T after) {
		action.run();
	}

	@Override
	public void onDelete(T resource, boolean finalStateUnknown) {
		action.run();
	}
}
