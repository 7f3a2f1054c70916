package io.infergate.admin.replay;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * What-if over captured traffic, for the dashboard's Replay view: the capture's files, and replays of a window of
 * them through the gateway's own engine against simulated pods in virtual time, once per choice of profile and
 * weights, in the background, one run at a time. The gateway provides it as a bean when its traffic capture is on;
 * without one the view says how to turn the capture on.
 * <p>
 * The dashboard validates a request before it starts it: the window, one to {@value #MAX_CHOICES} choices, each a
 * known profile with its complete weights.
 */
public interface ReplayRuns {

	/** Choices one run compares at most. */
	int MAX_CHOICES = 4;

	/** The capture files, in the order they were written. */
	List<CaptureFile> captures();

	/** Routed requests one run replays at most; a window holding more fails the run, naming the limit. */
	int maxRequests();

	/**
	 * Starts a run in the background.
	 *
	 * @throws IllegalStateException when a run is in progress
	 */
	ReplayRun start(RunRequest request);

	/** The run with this id, or null when it is not kept. */
	ReplayRun run(long id);

	/** The kept runs, newest first. */
	List<ReplayRun> runs();

	/**
	 * Stops the run with this id at its next request; a run that has ended stays as it ended.
	 *
	 * @throws NoSuchElementException when it is not kept
	 */
	ReplayRun cancel(long id);

	/**
	 * One capture file.
	 *
	 * @param name the file's name in the capture directory
	 * @param sizeBytes its size on disk
	 * @param records its whole records
	 * @param routedRecords those the gateway routed: the ones a replay replays
	 * @param firstArrivalMs the earliest arrival among its records, epoch ms; null when it has none
	 * @param lastArrivalMs the latest, epoch ms; null when it has none
	 * @param complete whether the file is a finished gzip file; false while the capture writes it (or when it was cut
	 * short), and then its records are those written so far
	 * @param problem why a record could not be read, or null
	 */
	record CaptureFile(String name, long sizeBytes, long records, long routedRecords, Long firstArrivalMs,
			Long lastArrivalMs, boolean complete, String problem) {
	}

	/**
	 * One profile to replay with.
	 *
	 * @param label how the view names it: the profile, and the weights changed from the running ones
	 * @param profile a scheduling profile of the running gateway
	 * @param weights every scorer of the profile with the weight to replay it with
	 */
	record Choice(String label, String profile, Map<String, Double> weights) {

		public Choice {
			weights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
		}
	}

	/**
	 * What to replay.
	 *
	 * @param fromMs the first arrival replayed, epoch ms; null for the capture's beginning
	 * @param toMs arrivals replayed before this instant, epoch ms; null for the capture's end
	 * @param choices one to {@value #MAX_CHOICES}, replayed in this order
	 */
	record RunRequest(Long fromMs, Long toMs, List<Choice> choices) {

		public RunRequest {
			choices = List.copyOf(choices);
		}
	}

	/** Where a run is. */
	enum State {

		/** Reading the window's records. */
		READING,
		/** Replaying the choices in turn. */
		REPLAYING,
		/** Every choice replayed. */
		DONE,
		/** Stopped by a problem: {@link ReplayRun#error()}. */
		FAILED,
		/** Stopped on request. */
		CANCELLED
	}

	/**
	 * A run, as far as it has got.
	 *
	 * @param id increasing from 1 per process
	 * @param request what it replays
	 * @param state where it is
	 * @param startedAt when it started
	 * @param endedAt when it ended, or null
	 * @param trace what was read: routed requests and their span, or null while reading
	 * @param requestsDone requests ended so far, over every choice
	 * @param requestsTotal requests to replay over every choice, 0 while reading
	 * @param figures the figures of the choices replayed so far, in the request's order
	 * @param error why it failed, or null
	 */
	record ReplayRun(long id, RunRequest request, State state, Instant startedAt, Instant endedAt, String trace,
			long requestsDone, long requestsTotal, List<Figures> figures, String error) {

		public ReplayRun {
			figures = List.copyOf(figures);
		}
	}

	/**
	 * One choice's figures over the replayed requests, as the bench's {@code results.json} names them. Percentiles
	 * are over the completed requests; NaN when none completed.
	 *
	 * @param ttftP50Ms time to first token, median
	 * @param ttftP90Ms time to first token, 90th percentile: the figure the winner is chosen by
	 * @param ttftP99Ms time to first token, 99th percentile
	 * @param requestsPerSec requests completed per second of the replayed window
	 * @param outputTokensPerSec output tokens per second of the same window
	 * @param prefixHitRate prompt tokens served from the pods' prefix caches over those looked up, 0..1
	 * @param failed requests that got no pod, or that the pod refused
	 * @param rejected requests flow control answered 429
	 */
	record Figures(double ttftP50Ms, double ttftP90Ms, double ttftP99Ms, double requestsPerSec,
			double outputTokensPerSec, double prefixHitRate, long failed, long rejected) {
	}
}
