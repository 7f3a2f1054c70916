package io.infergate.kvevents;

/** The engine dropped its whole prefix cache (a reset); every block it stored before is gone. */
public record AllBlocksCleared() implements KvCacheEvent {

	public static final String TAG = "AllBlocksCleared";

	public static final AllBlocksCleared INSTANCE = new AllBlocksCleared();

	@Override
	public String tag() {
		return TAG;
	}
}
