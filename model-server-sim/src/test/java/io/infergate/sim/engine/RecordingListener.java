package io.infergate.sim.engine;

import java.util.ArrayList;
import java.util.List;

/** Records engine events in the order they happen. */
final class RecordingListener implements EngineEventListener {

	final List<EngineRequest> finished = new ArrayList<>();

	final List<EngineRequest> preempted = new ArrayList<>();

	int tokens;

	@Override
	public void onToken(EngineRequest request, long timeMicros) {
		this.tokens++;
	}

	@Override
	public void onFinished(EngineRequest request, long timeMicros) {
		this.finished.add(request);
	}

	@Override
	public void onPreempted(EngineRequest request, long timeMicros) {
		this.preempted.add(request);
	}
}
