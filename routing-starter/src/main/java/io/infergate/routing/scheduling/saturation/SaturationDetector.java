package io.infergate.routing.scheduling.saturation;

import java.util.List;
import java.util.Objects;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.endpoint.EndpointMetrics;
import io.infergate.routing.endpoint.EndpointSnapshot;

/**
 * Decides whether an endpoint, or a whole pool, has room for more work, from its latest metrics snapshot. It is the
 * one place that holds the saturation thresholds: the {@code ready} and {@code saturation} filters use it, and so
 * does flow control.
 * <p>
 * Modelled on the llm-d utilization detector ({@code llm-d-router},
 * {@code pkg/epp/framework/plugins/flowcontrol/saturationdetector/utilization}), with its defaults: queue-depth
 * threshold 5, KV-cache threshold 0.8, staleness threshold 200 ms, staleness policy {@code saturated}, headroom 0.0.
 * <ul>
 * <li><b>Stale:</b> the snapshot is missing, or older than the staleness threshold at the decision's time.</li>
 * <li><b>Saturated:</b> {@code waiting > Q·(1+headroom)} or {@code kvCacheUsage > KV·(1+headroom)}, where Q and KV
 * are the thresholds. Headroom is llm-d's burst allowance over the thresholds. A value equal to the limit is not
 * saturated: the threshold is the most an endpoint may carry. (llm-d's filter already drops an endpoint at the
 * limit; its earlier detector, like this one, did not.) A stale endpoint is saturated under the {@code saturated}
 * policy; under {@code ignore} it is judged on its last snapshot, and an endpoint with no snapshot at all is not
 * saturated.</li>
 * <li><b>Pool saturated:</b> every candidate is saturated; an empty pool is saturated.</li>
 * <li><b>Utilization</b> (llm-d's roofline): the mean over candidates of {@code max(waiting/Q, kvCacheUsage/KV)},
 * 1.0 meaning "at the thresholds on average"; stale candidates count 1.0 under {@code saturated} and are left out
 * under {@code ignore}.</li>
 * </ul>
 * Thread-safe and allocation-free.
 */
public final class SaturationDetector {

	private final SaturationProperties properties;

	private final long stalenessThresholdMillis;

	private final double queueLimit;

	private final double kvCacheLimit;

	private final boolean staleIsSaturated;

	public SaturationDetector(SaturationProperties properties) {
		this.properties = Objects.requireNonNull(properties, "properties");
		this.stalenessThresholdMillis = properties.stalenessThreshold().toMillis();
		this.queueLimit = properties.queueDepthThreshold() * (1.0 + properties.headroom());
		this.kvCacheLimit = properties.kvCacheThreshold() * (1.0 + properties.headroom());
		this.staleIsSaturated = properties.stalenessPolicy() == StalenessPolicy.SATURATED;
	}

	public SaturationProperties properties() {
		return properties;
	}

	/** Whether the endpoint's snapshot is missing or older than the staleness threshold at {@code nowMillis}. */
	public boolean isStale(Endpoint endpoint, long nowMillis) {
		EndpointSnapshot snapshot = endpoint.snapshot();
		return snapshot == null || snapshot.isStale(nowMillis, stalenessThresholdMillis);
	}

	/**
	 * Whether the endpoint's metrics are fresh enough to route on under the staleness policy: always under
	 * {@code ignore}, otherwise when it is not {@linkplain #isStale stale}.
	 */
	public boolean isReady(Endpoint endpoint, long nowMillis) {
		return !staleIsSaturated || !isStale(endpoint, nowMillis);
	}

	/** Whether the endpoint is over a threshold (plus headroom), or stale under the {@code saturated} policy. */
	public boolean isSaturated(Endpoint endpoint, long nowMillis) {
		EndpointSnapshot snapshot = endpoint.snapshot();
		if (snapshot == null) {
			return staleIsSaturated;
		}
		if (staleIsSaturated && snapshot.isStale(nowMillis, stalenessThresholdMillis)) {
			return true;
		}
		EndpointMetrics metrics = snapshot.metrics();
		return metrics.waitingRequests() > queueLimit || metrics.kvCacheUsage() > kvCacheLimit;
	}

	/** Whether every candidate is saturated; {@code true} for an empty list. */
	public boolean isPoolSaturated(List<Endpoint> candidates, long nowMillis) {
		for (int i = 0, n = candidates.size(); i < n; i++) {
			if (!isSaturated(candidates.get(i), nowMillis)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Requests the candidates can still take into their queues before each is saturated: the sum, over those not
	 * {@linkplain #isSaturated saturated}, of {@code ⌊Q·(1+headroom)⌋ − waiting + 1} (an endpoint at the limit takes
	 * one more, which puts it over). An endpoint without a snapshot counts an empty queue under {@code ignore}. 0 when
	 * the pool is saturated.
	 */
	public long queueRoom(List<Endpoint> candidates, long nowMillis) {
		long room = 0;
		for (int i = 0, n = candidates.size(); i < n; i++) {
			Endpoint endpoint = candidates.get(i);
			if (isSaturated(endpoint, nowMillis)) {
				continue;
			}
			EndpointSnapshot snapshot = endpoint.snapshot();
			int waiting = (snapshot != null) ? snapshot.metrics().waitingRequests() : 0;
			room += Math.max(1, (long) Math.floor(queueLimit) - waiting + 1);
		}
		return room;
	}

	/**
	 * llm-d's pool utilization: the mean of {@code max(waiting/Q, kvCacheUsage/KV)} over the candidates, without
	 * headroom. 1.0 for an empty list; 0.0 when every candidate is stale under {@code ignore}.
	 */
	public double utilization(List<Endpoint> candidates, long nowMillis) {
		int n = candidates.size();
		if (n == 0) {
			return 1.0;
		}
		double sum = 0;
		int counted = 0;
		for (int i = 0; i < n; i++) {
			EndpointSnapshot snapshot = candidates.get(i).snapshot();
			if (snapshot == null || snapshot.isStale(nowMillis, stalenessThresholdMillis)) {
				if (staleIsSaturated) {
					sum += 1.0;
					counted++;
				}
				continue;
			}
			EndpointMetrics metrics = snapshot.metrics();
			double queueRatio = metrics.waitingRequests() / (double) properties.queueDepthThreshold();
			double kvCacheRatio = metrics.kvCacheUsage() / properties.kvCacheThreshold();
			sum += Math.max(queueRatio, kvCacheRatio);
			counted++;
		}
		return counted == 0 ? 0.0 : sum / counted;
	}
}
