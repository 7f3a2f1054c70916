package io.infergate.gateway.support;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.infergate.routing.endpoint.Endpoint;
import io.infergate.routing.pool.EndpointRegistry;

import static org.awaitility.Awaitility.await;

/**
 * A gateway test against simulated pods: subclasses start their pods with {@link #sims} in a
 * {@code @DynamicPropertySource} method and name them in pool properties; the pods stop after the class.
 */
public abstract class SimulatedPods {

	protected static final Sims sims = new Sims();

	@LocalServerPort
	protected int port;

	@LocalManagementPort
	protected int managementPort;

	@Autowired
	protected EndpointRegistry endpoints;

	@AfterAll
	static void stopSims() {
		sims.close();
	}

	protected String url(String path) {
		return "http://127.0.0.1:" + port + path;
	}

	protected String managementUrl(String path) {
		return "http://127.0.0.1:" + managementPort + path;
	}

	/** Waits until every endpoint of the named pool has been scraped and takes traffic. */
	protected void awaitReady(String pool) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> endpoints.pool(pool).endpoints().stream().allMatch(Endpoint::isReady));
	}

	/** Waits until every endpoint of every pool takes traffic. */
	protected void awaitEveryPoolReady() {
		await().atMost(Duration.ofSeconds(30)).until(() -> endpoints.pools()
			.stream()
			.allMatch((pool) -> pool.endpoints().stream().allMatch(Endpoint::isReady)));
	}
}
