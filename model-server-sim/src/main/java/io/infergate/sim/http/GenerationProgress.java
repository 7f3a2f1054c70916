package io.infergate.sim.http;

import io.infergate.sim.engine.EngineEventListener;
import io.infergate.sim.engine.EngineRequest;

/**
 * Hands a request's tokens from the engine thread to the HTTP thread serving it. The engine only counts and
 * signals; the HTTP thread renders and writes, so a slow client never stalls the engine.
 */
final class GenerationProgress {

	/** Forwards engine events to the {@link GenerationProgress} attached to each request. */
	static final EngineEventListener LISTENER = new EngineEventListener() {

		@Override
		public void onToken(EngineRequest request, long timeMicros) {
			((GenerationProgress) request.attachment()).tokenProduced();
		}

		@Override
		public void onFinished(EngineRequest request, long timeMicros) {
			((GenerationProgress) request.attachment()).finished();
		}
	};

	private final boolean wakePerToken;

	private int tokens;

	private boolean finished;

	/** @param wakePerToken whether the waiting thread wants each token (streams) or only the end */
	GenerationProgress(boolean wakePerToken) {
		this.wakePerToken = wakePerToken;
	}

	private synchronized void tokenProduced() {
		this.tokens++;
		if (this.wakePerToken) {
			notifyAll();
		}
	}

	private synchronized void finished() {
		this.finished = true;
		notifyAll();
	}

	/** Waits until more than {@code seen} tokens exist or the request finished; returns the tokens so far. */
	synchronized int awaitTokensBeyond(int seen) throws InterruptedException {
		while (this.tokens <= seen && !this.finished) {
			wait();
		}
		return this.tokens;
	}

	synchronized void awaitFinished() throws InterruptedException {
		while (!this.finished) {
			wait();
		}
	}
}
