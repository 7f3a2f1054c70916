package io.infergate.gateway.dashboard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.admin.source.FlowControlQueueSource;
import io.infergate.routing.flowcontrol.FlowController;
import io.infergate.routing.flowcontrol.PoolFlowReport;

/**
 * The dashboard's flow-control section: one queue per pool that flow control has seen, with its waiting requests,
 * what it has dispatched that has not ended, and the waiting requests of each priority band.
 */
public class FlowControlDashboardSource implements FlowControlQueueSource {

	private final FlowController controller;

	public FlowControlDashboardSource(FlowController controller) {
		this.controller = controller;
	}

	@Override
	public List<FlowControlQueue> queues() {
		List<FlowControlQueue> queues = new ArrayList<>();
		for (PoolFlowReport pool : controller.report()) {
			Map<String, Number> figures = new LinkedHashMap<>();
			figures.put("in flight", pool.inFlightRequests());
			figures.put("in-flight tokens", pool.inFlightTokens());
			figures.put("waiting bytes", pool.queuedBytes());
			for (PoolFlowReport.Band band : pool.bands()) {
				figures.put("waiting at priority " + band.priority(), band.queuedRequests());
			}
			queues.add(new FlowControlQueue(pool.pool(), pool.queuedRequests(), figures));
		}
		return queues;
	}
}
