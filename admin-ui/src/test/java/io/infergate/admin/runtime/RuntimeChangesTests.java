package io.infergate.admin.runtime;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.infergate.admin.runtime.RuntimeChanges.Change;
import io.infergate.routing.scheduling.config.SchedulingProfiles;
import io.infergate.routing.scheduling.config.SchedulingProperties;
import io.infergate.routing.scheduling.load.InFlightLoad;
import io.infergate.routing.scheduling.picker.MaxScorePicker;
import io.infergate.routing.scheduling.scorer.MetricScorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(OutputCaptureExtension.class)
class RuntimeChangesTests {

	private static final Instant NOW = Instant.parse("2026-12-06T03:00:00Z");

	private final SchedulingProfiles profiles = profiles();

	private final RuntimeChanges changes = new RuntimeChanges(profiles, true, Clock.fixed(NOW, ZoneOffset.UTC));

	private static SchedulingProfiles profiles() {
		Map<String, Double> weights = new LinkedHashMap<>();
		weights.put("queue", 2.0);
		weights.put("kv-cache", 2.0);
		SchedulingProperties properties = new SchedulingProperties("default",
				Map.of("default", new SchedulingProperties.Profile(List.of(), weights, "max-score", null)), Map.of());
		return new SchedulingProfiles(properties, List.of(), List.of(MetricScorer.predefined(MetricScorer.QUEUE),
				MetricScorer.predefined(MetricScorer.KV_CACHE), new MaxScorePicker(), new InFlightLoad()));
	}

	@Test
	void anAppliedChangeReachesTheProfileAndIsAuditedInTheLog(CapturedOutput output) {
		Change change = changes.apply("admin", "default", Map.of("kv-cache", 0.5));

		assertThat(change.id()).isEqualTo(1);
		assertThat(change.time()).isEqualTo(NOW);
		assertThat(change.by()).isEqualTo("admin");
		assertThat(change.before()).containsExactly(Map.entry("queue", 2.0), Map.entry("kv-cache", 2.0));
		assertThat(change.after()).containsExactly(Map.entry("queue", 2.0), Map.entry("kv-cache", 0.5));
		assertThat(change.reverts()).isNull();
		assertThat(profiles.defaultProfile().weights()).isEqualTo(change.after());
		assertThat(changes.recent()).containsExactly(change);
		assertThat(output).contains("Runtime change #1 by admin: scheduling profile 'default' weights "
				+ "{queue=2.0, kv-cache=2.0} -> {queue=2.0, kv-cache=0.5}");
	}

	@Test
	void revertingPutsBackTheWeightsAChangeReplacedAsANewChange() {
		Change first = changes.apply("admin", "default", Map.of("kv-cache", 0.5));
		changes.apply("admin", "default", Map.of("queue", 1.0));

		Change revert = changes.revert("ops", first.id());

		assertThat(revert.id()).isEqualTo(3);
		assertThat(revert.reverts()).isEqualTo(1);
		assertThat(revert.by()).isEqualTo("ops");
		assertThat(revert.after()).isEqualTo(first.before());
		assertThat(profiles.get("default").weights()).containsExactly(Map.entry("queue", 2.0),
				Map.entry("kv-cache", 2.0));
		assertThat(changes.recent()).extracting(Change::id).containsExactly(3L, 2L, 1L);
		assertThatThrownBy(() -> changes.revert("ops", 42)).isInstanceOf(NoSuchElementException.class)
			.hasMessage("no change #42 is kept");
	}

	@Test
	void aBadChangeIsRefusedWholeAndNotAudited() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> changes.apply("admin", "default", Map.of("queue", 1.0, "prefix-cache", 1.0)));
		assertThatIllegalArgumentException().isThrownBy(() -> changes.apply("admin", "default", Map.of("queue", -1.0)));
		assertThatIllegalArgumentException().isThrownBy(() -> changes.apply("admin", "fastest", Map.of("queue", 1.0)));

		assertThat(profiles.get("default").weights()).containsEntry("queue", 2.0);
		assertThat(changes.recent()).isEmpty();
	}

	@Test
	void offByDefaultNothingChanges() {
		RuntimeChanges off = new RuntimeChanges(profiles, false, Clock.systemUTC());

		assertThat(off.enabled()).isFalse();
		assertThatIllegalStateException().isThrownBy(() -> off.apply("admin", "default", Map.of("queue", 1.0)))
			.withMessageContaining("infergate.management.admin.allow-runtime-changes=true");
		assertThat(profiles.get("default").weights()).containsEntry("queue", 2.0);
	}

	@Test
	void keepsTheLatestHundredChanges() {
		for (int i = 0; i < 105; i++) {
			changes.apply("admin", "default", Map.of("queue", (double) i));
		}

		assertThat(changes.recent()).hasSize(RuntimeChanges.KEPT);
		assertThat(changes.recent().get(0).id()).isEqualTo(105);
	}
}
