package io.infergate.routing.kvevents;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.prefix.EngineBlockIndex;

/**
 * Reads the KV-cache event streams of any number of endpoints into the {@link EngineBlockIndex}, on one thread that
 * owns every ZeroMQ socket and polls them all ({@link KvEventStream} per endpoint). {@link #subscribe} and
 * {@link #unsubscribe} may be called from any thread; they take effect within one poll interval
 * ({@value #POLL_MILLIS} ms). Unsubscribing closes the endpoint's sockets and purges it from the index.
 * <p>
 * ZeroMQ reconnects a SUB socket by itself, so a publisher that restarts is read again without help; the streams
 * decide what the index may still believe.
 */
public final class KvEventSubscriber implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(KvEventSubscriber.class);

	static final long POLL_MILLIS = 20;

	private final EngineBlockIndex index;

	private final ZContext context = new ZContext(1);

	private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();

	/** Touched by the subscriber's thread only. */
	private final Map<EndpointId, KvEventStream> streams = new LinkedHashMap<>();

	/** A copy for readers on other threads. */
	private volatile List<KvEventStream> published = List.of();

	private final AtomicInteger monitors = new AtomicInteger();

	private final Object lifecycle = new Object();

	private Thread thread;

	private volatile boolean closed;

	public KvEventSubscriber(EngineBlockIndex index) {
		this.index = index;
	}

	/** Starts reading {@code endpoint}'s stream, replacing any earlier subscription to it. */
	public void subscribe(EndpointId endpoint, KvEventStreamSettings settings) {
		enqueue(() -> {
			KvEventStream old = streams.remove(endpoint);
			if (old != null) {
				old.close();
				index.clear(endpoint);
			}
			KvEventStream stream = new KvEventStream(endpoint, settings, index, context,
					monitors.incrementAndGet());
			stream.open();
			streams.put(endpoint, stream);
			logger.info("KV events of " + endpoint + ": subscribed to " + settings.publisherAddress()
					+ ((settings.replayAddress() != null) ? ", replay " + settings.replayAddress() : ", no replay"));
		});
	}

	/** Stops reading {@code endpoint}'s stream and forgets its blocks. */
	public void unsubscribe(EndpointId endpoint) {
		enqueue(() -> {
			KvEventStream stream = streams.remove(endpoint);
			if (stream != null) {
				stream.close();
			}
			index.purge(endpoint);
		});
	}

	/** Every stream's state, in subscription order. */
	public List<KvEventStreamStatus> status() {
		List<KvEventStreamStatus> statuses = new ArrayList<>();
		for (KvEventStream stream : published) {
			statuses.add(stream.status());
		}
		return statuses;
	}

	private void enqueue(Runnable command) {
		synchronized (lifecycle) {
			if (closed) {
				return;
			}
			commands.add(command);
			if (thread == null) {
				thread = new Thread(this::run, "infergate-kv-events");
				thread.setDaemon(true);
				thread.start();
			}
		}
	}

	private void run() {
		ZMQ.Poller poller = null;
		List<KvEventStream> polled = List.of();
		try {
			while (!closed) {
				boolean changed = false;
				Runnable command;
				while ((command = commands.poll()) != null) {
					command.run();
					changed = true;
				}
				if (changed || poller == null) {
					if (poller != null) {
						poller.close();
					}
					polled = List.copyOf(streams.values());
					published = polled;
					// replay sockets are read every turn rather than polled: a stream replaces its own after a timeout
					poller = context.createPoller(2 * Math.max(1, polled.size()));
					for (KvEventStream stream : polled) {
						poller.register(stream.sub, ZMQ.Poller.POLLIN);
						poller.register(stream.monitor, ZMQ.Poller.POLLIN);
					}
				}
				poller.poll(POLL_MILLIS);
				long now = System.nanoTime();
				for (KvEventStream stream : polled) {
					try {
						stream.readMonitor(now);
						stream.readPublished();
						stream.readReplayed();
						stream.tick(now);
					}
					catch (RuntimeException ex) {
						logger.warn("KV events of " + stream.endpoint + ": " + ex, ex);
					}
				}
			}
		}
		finally {
			if (poller != null) {
				poller.close();
			}
			for (KvEventStream stream : streams.values()) {
				stream.close();
			}
		}
	}

	/** Stops the thread and closes every socket. */
	@Override
	public void close() {
		Thread running;
		synchronized (lifecycle) {
			closed = true;
			running = thread;
		}
		if (running != null) {
			try {
				running.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		context.close();
	}
}
