package io.infergate.routing.circuit;

import java.net.ConnectException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.EndpointId;

import static org.assertj.core.api.Assertions.assertThat;

class EndpointCircuitsTests {

	private static final EndpointId POD = new EndpointId("10.0.0.1", 8000);

	private final EndpointCircuits circuits = new EndpointCircuits(
			new CircuitBreakerProperties(true, 3, 50, 10, 4, Duration.ofMillis(100), 2, Duration.ofSeconds(60)));

	@Test
	void anEndpointWithNoRecordedOutcomeIsClosed() {
		assertThat(circuits.state(POD)).isEqualTo("closed");
		assertThat(circuits.tryAcquirePermission(POD)).isTrue();
	}

	@Test
	void consecutiveConnectionFailuresOpenTheCircuitAtOnce() {
		for (int i = 0; i < 3; i++) {
			circuits.recordConnectionFailure(POD, 1000, new ConnectException("refused"));
		}

		assertThat(circuits.state(POD)).isEqualTo("open");
		assertThat(circuits.tryAcquirePermission(POD)).isFalse();
	}

	@Test
	void aSuccessBetweenConnectionFailuresStartsTheCountAgain() {
		for (int i = 0; i < 6; i++) { // keeps the failure rate under 50%
			circuits.recordSuccess(POD, 1000);
		}
		circuits.recordConnectionFailure(POD, 1000, new ConnectException("refused"));
		circuits.recordConnectionFailure(POD, 1000, new ConnectException("refused"));
		circuits.recordSuccess(POD, 1000);
		circuits.recordConnectionFailure(POD, 1000, new ConnectException("refused"));

		assertThat(circuits.state(POD)).isEqualTo("closed");
	}

	@Test
	void aServerErrorRateAtTheThresholdOpensTheCircuitOnceEnoughCallsAreRecorded() {
		circuits.recordServerError(POD, 1000, 500);
		circuits.recordSuccess(POD, 1000);
		circuits.recordServerError(POD, 1000, 500);
		assertThat(circuits.state(POD)).isEqualTo("closed"); // 3 calls, under the minimum of 4

		circuits.recordSuccess(POD, 1000);

		assertThat(circuits.state(POD)).isEqualTo("open"); // 2 of 4 failed: 50%
	}

	@Test
	void anOpenCircuitTurnsHalfOpenAfterItsWaitAndClosesWhenItsProbesSucceed() throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			circuits.recordConnectionFailure(POD, 1000, new ConnectException("refused"));
		}
		Thread.sleep(150);

		assertThat(circuits.tryAcquirePermission(POD)).isTrue();
		assertThat(circuits.state(POD)).isEqualTo("half-open");
		assertThat(circuits.tryAcquirePermission(POD)).isTrue();
		assertThat(circuits.tryAcquirePermission(POD)).isFalse(); // two probes only
		circuits.recordSuccess(POD, 1000);
		circuits.recordSuccess(POD, 1000);

		assertThat(circuits.state(POD)).isEqualTo("closed");
	}

	@Test
	void aProbeGivenBackLetsAnotherRequestProbe() throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			circuits.recordConnectionFailure(POD, 1000, new ConnectException("refused"));
		}
		Thread.sleep(150);
		circuits.tryAcquirePermission(POD);
		circuits.tryAcquirePermission(POD);

		circuits.releasePermission(POD);

		assertThat(circuits.tryAcquirePermission(POD)).isTrue();
	}

	@Test
	void disabledCircuitsRecordNothing() {
		EndpointCircuits off = new EndpointCircuits(
				new CircuitBreakerProperties(false, 1, 50, 10, 4, Duration.ofSeconds(1), 2, Duration.ofSeconds(60)));

		off.recordConnectionFailure(POD, 1000, new ConnectException("refused"));

		assertThat(off.state(POD)).isEqualTo("closed");
		assertThat(off.tryAcquirePermission(POD)).isTrue();
	}
}
