package io.infergate.admin.source;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flow-control queues, for the dashboard's flow-control section. Flow control provides it as a bean; without
 * one the section is left out.
 */
@FunctionalInterface
public interface FlowControlQueueSource {

	/** Every flow-control queue, in the order the dashboard should list them. */
	List<FlowControlQueue> queues();

	/**
	 * One queue.
	 *
	 * @param name the queue's name, e.g. its pool
	 * @param waiting requests waiting in it now
	 * @param figures further figures by name (admitted, rejected, oldest wait...), shown as given, in order
	 */
	record FlowControlQueue(String name, int waiting, Map<String, Number> figures) {

		public FlowControlQueue {
			figures = (figures == null) ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(figures));
		}
	}
}
