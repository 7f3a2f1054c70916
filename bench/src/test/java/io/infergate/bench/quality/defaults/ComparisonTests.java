package io.infergate.bench.quality.defaults;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.infergate.bench.quality.defaults.Comparison.Cell;
import io.infergate.bench.quality.defaults.Comparison.Row;
import io.infergate.bench.quality.defaults.Comparison.Verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class ComparisonTests {

	private static final List<String> PROFILES = List.of("default", "least-request", "sticky", "fast");

	/** TTFT p90 and hit rate of default, least-request, sticky and fast, in that order. */
	private static Row row(String workload, int gateways, double... figures) {
		Map<String, Cell> cells = new LinkedHashMap<>();
		for (int i = 0; i < PROFILES.size(); i++) {
			cells.put(PROFILES.get(i), new Cell(figures[2 * i], figures[2 * i + 1]));
		}
		return new Row(workload, gateways, cells);
	}

	private static Comparison comparison() {
		return new Comparison(PROFILES, List.of(
				// sticky is best on multi-turn alone but loses its hit rate behind 4 replicas
				row("multi-turn-chat", 1, 44, 0.70, 400, 0.14, 42, 0.71, 90, 0.69),
				row("multi-turn-chat", 4, 41, 0.71, 500, 0.14, 200, 0.38, 58, 0.70),
				// fast herds on random prompts: 4.09x least-request's TTFT p90; default makes least-request's choices
				row("no-sharing", 1, 54.7, 0, 54.7, 0, 54.7, 0, 223.8, 0),
				row("no-sharing", 4, 64.9, 0, 64.9, 0, 64.9, 0, 119.8, 0),
				row("lora-mix", 1, 13.8, 0.87, 850, 0.70, 559, 0.87, 112, 0.87)));
	}

	private static Verdict verdict(Comparison comparison, String profile) {
		return comparison.verdicts().stream().filter((verdict) -> verdict.profile().equals(profile)).findFirst()
			.orElseThrow();
	}

	@Test
	void multiTurnRatiosAreOverTheBestOfTheRowAndNoSharingOverLeastRequest() {
		Verdict verdict = verdict(comparison(), "default");

		assertThat(verdict.multiTurnOverBest()).containsOnlyKeys(1, 4);
		assertThat(verdict.multiTurnOverBest().get(1)).isCloseTo(44.0 / 42, within(1e-9));
		assertThat(verdict.multiTurnOverBest().get(4)).isCloseTo(1.0, within(1e-9));
		assertThat(verdict.multiTurnHitKept()).isCloseTo(0.71 / 0.70, within(1e-9));
		assertThat(verdict.noSharingOverLeastRequest()).containsEntry(1, 1.0).containsEntry(4, 1.0);
		assertThat(verdict.meetsTargets()).isTrue();
	}

	@Test
	void eachTargetCanFailAProfile() {
		Comparison comparison = comparison();

		// 200 ms against 41 at N = 4, and 0.38 / 0.71 of the hit rate kept
		assertThat(verdict(comparison, "sticky").meetsTargets()).isFalse();
		assertThat(verdict(comparison, "sticky").multiTurnHitKept()).isLessThan(0.95);
		// 4.09x least-request on no-sharing
		assertThat(verdict(comparison, "fast").noSharingOverLeastRequest().get(1)).isGreaterThan(4);
		assertThat(verdict(comparison, "fast").meetsTargets()).isFalse();
		assertThat(verdict(comparison, "least-request").meetsTargets()).isFalse();
	}

	@Test
	void theBestMeetsEveryTargetWithTheLowestGeometricMean() {
		Comparison comparison = comparison();

		assertThat(comparison.best()).map(Verdict::profile).hasValue("default");
		// default is the best of its row everywhere but multi-turn-chat alone (44 against 42)
		assertThat(verdict(comparison, "default").overBest()).isCloseTo(Math.pow(44.0 / 42, 1.0 / 5), within(1e-9));
		assertThat(comparison.verdictLine()).startsWith("Best that meets every target: `default`")
			.endsWith("The shipped `default` is the best measured.");
	}

	@Test
	void aDefaultThatIsNotTheBestIsSaid() {
		Comparison comparison = new Comparison(List.of("default", "least-request"), List.of(
				new Row("no-sharing", 1, Map.of("default", new Cell(100, 0), "least-request", new Cell(50, 0)))));

		assertThat(comparison.verdictLine()).isEqualTo("Best that meets every target: `least-request` (geometric "
				+ "mean 1.000 of the row's best). The shipped `default` is not: its definition should become "
				+ "`least-request`'s.");
	}

	@Test
	void profilesWithTheSameFiguresEverywhereAreNamedAndTheFirstListedWinsTheTie() {
		Map<String, Cell> cells = new LinkedHashMap<>();
		cells.put("default", new Cell(40, 0.7));
		cells.put("hybrid", new Cell(40, 0.7));
		cells.put("least-request", new Cell(40, 0.1));
		Comparison comparison = new Comparison(List.of("default", "hybrid", "least-request"),
				List.of(new Row("shared-prefix", 1, cells)));

		assertThat(comparison.best()).map(Verdict::profile).hasValue("default");
		assertThat(comparison.sameFiguresAs("default")).containsExactly("hybrid");
		assertThat(comparison.verdictLine()).contains("with the same figures as `hybrid`");
	}

	@Test
	void theMarkdownHasBothTablesTheTargetsAndTheVerdict() {
		String markdown = comparison().markdown("java -jar routing-bench.jar compare-defaults --out x");

		assertThat(markdown).contains("    java -jar routing-bench.jar compare-defaults --out x")
			.contains("| workload, N | default | least-request | sticky | fast |")
			.contains("| multi-turn-chat, 1 | 44.0 | 400.0 | **42.0** | 90.0 |")
			.contains("| lora-mix, 1 | 0.870 | 0.700 | 0.870 | 0.870 |")
			.contains("| sticky | ")
			.contains("## Verdict");
	}

	@Test
	void aRowWithoutEveryProfileIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Comparison(List.of("default", "hybrid"),
				List.of(new Row("no-sharing", 1, Map.of("default", new Cell(1, 0))))))
			.withMessageContaining("no-sharing behind 1 gateways lacks figures");
	}
}
