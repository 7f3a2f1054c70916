package io.infergate.bench.quality.defaults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The figures behind the choice of the shipped default profile: TTFT p90 and prefix hit rate of every candidate
 * profile on every workload, with one gateway replica and with several sharing their dispatches, and the targets the
 * default must meet.
 * <p>
 * The targets: on {@value #MULTI_TURN}, TTFT p90 within 5% of the best candidate's at every replica count, and the
 * prefix hit rate with the most replicas at least 95% of the single replica's; on {@value #NO_SHARING}, TTFT p90 within
 * 5% of {@value #LEAST_REQUEST}'s at every replica count. Among the candidates that meet them, the best has the lowest
 * geometric mean, over every workload and replica count, of its TTFT p90 over the best candidate's in that row.
 */
public record Comparison(List<String> profiles, List<Row> rows) {

	static final String MULTI_TURN = "multi-turn-chat";

	static final String NO_SHARING = "no-sharing";

	static final String LEAST_REQUEST = "least-request";

	static final String DEFAULT = "default";

	static final double WITHIN = 1.05;

	static final double KEPT_HIT_RATE = 0.95;

	public Comparison {
		profiles = List.copyOf(profiles);
		rows = List.copyOf(rows);
		for (Row row : rows) {
			if (!row.cells().keySet().containsAll(profiles)) {
				throw new IllegalArgumentException(row.workload() + " behind " + row.gateways()
						+ " gateways lacks figures for some of " + profiles);
			}
		}
	}

	/** One workload behind one number of gateway replicas. */
	public record Row(String workload, int gateways, Map<String, Cell> cells) {

		public Row {
			cells = new LinkedHashMap<>(cells);
		}

		double bestTtftP90() {
			return cells.values().stream().mapToDouble(Cell::ttftP90Ms).min().orElse(Double.NaN);
		}
	}

	/** One profile's figures on one row. */
	public record Cell(double ttftP90Ms, double prefixHitRate) {
	}

	/**
	 * How one profile did against the targets; a target whose workload was not run is null (not applicable).
	 *
	 * @param overBest geometric mean over the rows of TTFT p90 / the row's best
	 * @param multiTurnOverBest per replica count, {@value Comparison#MULTI_TURN}'s TTFT p90 / the row's best
	 * @param multiTurnHitKept {@value Comparison#MULTI_TURN}'s prefix hit rate with the most replicas / with one
	 * @param noSharingOverLeastRequest per replica count, {@value Comparison#NO_SHARING}'s TTFT p90 / least-request's
	 */
	public record Verdict(String profile, double overBest, Map<Integer, Double> multiTurnOverBest,
			Double multiTurnHitKept, Map<Integer, Double> noSharingOverLeastRequest) {

		public boolean meetsTargets() {
			return multiTurnOverBest.values().stream().allMatch((ratio) -> ratio <= WITHIN)
					&& (multiTurnHitKept == null || multiTurnHitKept >= KEPT_HIT_RATE)
					&& noSharingOverLeastRequest.values().stream().allMatch((ratio) -> ratio <= WITHIN);
		}
	}

	public List<Verdict> verdicts() {
		List<Verdict> verdicts = new ArrayList<>();
		for (String profile : profiles) {
			double logSum = 0;
			Map<Integer, Double> multiTurn = new LinkedHashMap<>();
			Map<Integer, Double> noSharing = new LinkedHashMap<>();
			Row fewest = null;
			Row most = null;
			for (Row row : rows) {
				double ttft = row.cells().get(profile).ttftP90Ms();
				logSum += Math.log(ttft / row.bestTtftP90());
				if (row.workload().equals(MULTI_TURN)) {
					multiTurn.put(row.gateways(), ttft / row.bestTtftP90());
					fewest = (fewest == null || row.gateways() < fewest.gateways()) ? row : fewest;
					most = (most == null || row.gateways() > most.gateways()) ? row : most;
				}
				if (row.workload().equals(NO_SHARING) && row.cells().containsKey(LEAST_REQUEST)) {
					noSharing.put(row.gateways(), ttft / row.cells().get(LEAST_REQUEST).ttftP90Ms());
				}
			}
			Double hitKept = (fewest != null && fewest != most)
					? most.cells().get(profile).prefixHitRate() / fewest.cells().get(profile).prefixHitRate() : null;
			verdicts.add(new Verdict(profile, Math.exp(logSum / rows.size()), multiTurn, hitKept, noSharing));
		}
		return verdicts;
	}

	/** The candidate that meets every target with the lowest geometric mean; the first listed wins a tie. */
	public Optional<Verdict> best() {
		Verdict best = null;
		for (Verdict verdict : verdicts()) {
			if (verdict.meetsTargets() && (best == null || verdict.overBest() < best.overBest())) {
				best = verdict;
			}
		}
		return Optional.ofNullable(best);
	}

	/** The profiles whose figures equal {@code profile}'s on every row, other than itself. */
	public List<String> sameFiguresAs(String profile) {
		List<String> same = new ArrayList<>();
		for (String other : profiles) {
			if (!other.equals(profile)
					&& rows.stream().allMatch((row) -> row.cells().get(other).equals(row.cells().get(profile)))) {
				same.add(other);
			}
		}
		return same;
	}

	/** The tables and the verdict, in Markdown. */
	public String markdown(String command) {
		StringBuilder md = new StringBuilder();
		md.append("# Which profile should ship as `default`\n\n");
		md.append("Every candidate on every workload, alone and behind several gateway replicas that share their "
				+ "dispatches (PROFILE+dispatch-sharing), in virtual time. Reproduce:\n\n    ")
			.append(command)
			.append("\n\n## TTFT p90 ms (bold: the row's best)\n\n");
		table(md, (cell, row) -> {
			String figure = String.format(Locale.ROOT, "%,.1f", cell.ttftP90Ms());
			return cell.ttftP90Ms() == row.bestTtftP90() ? "**" + figure + "**" : figure;
		});
		md.append("\n## Prefix hit rate\n\n");
		table(md, (cell, row) -> String.format(Locale.ROOT, "%.3f", cell.prefixHitRate()));
		md.append("\n## Targets\n\n");
		md.append("Within 5% of the best on ").append(MULTI_TURN).append(" at every N; ").append(MULTI_TURN)
			.append(" prefix hit rate at the most replicas ≥ 95% of one replica's; within 5% of ").append(LEAST_REQUEST)
			.append(" on ").append(NO_SHARING).append(" at every N. Ranked by the geometric mean of TTFT p90 over "
					+ "the row's best, across every row.\n\n");
		md.append("| profile | TTFT p90 over the best, geometric mean | ").append(MULTI_TURN)
			.append(" over the best, by N | hit rate kept | ").append(NO_SHARING)
			.append(" over least-request, by N | meets every target |\n|---|---:|---|---:|---|---|\n");
		for (Verdict verdict : verdicts()) {
			md.append("| ").append(verdict.profile()).append(" | ")
				.append(String.format(Locale.ROOT, "%.3f", verdict.overBest())).append(" | ")
				.append(ratios(verdict.multiTurnOverBest())).append(" | ")
				.append((verdict.multiTurnHitKept() == null) ? "n/a"
						: String.format(Locale.ROOT, "%.3f", verdict.multiTurnHitKept()))
				.append(" | ").append(ratios(verdict.noSharingOverLeastRequest())).append(" | ")
				.append(verdict.meetsTargets() ? "yes" : "no").append(" |\n");
		}
		md.append("\n## Verdict\n\n").append(verdictLine()).append('\n');
		return md.toString();
	}

	/** One line: the best candidate and whether the shipped default has its figures. */
	public String verdictLine() {
		Optional<Verdict> best = best();
		if (best.isEmpty()) {
			return "No candidate meets every target.";
		}
		String name = best.get().profile();
		List<String> same = sameFiguresAs(name);
		String line = String.format(Locale.ROOT, "Best that meets every target: `%s` (geometric mean %.3f of the "
				+ "row's best)%s.", name, best.get().overBest(),
				same.isEmpty() ? "" : ", with the same figures as `" + String.join("`, `", same) + "`");
		if (!profiles.contains(DEFAULT)) {
			return line;
		}
		boolean defaultIsBest = name.equals(DEFAULT) || same.contains(DEFAULT);
		return line + (defaultIsBest ? " The shipped `default` is the best measured."
				: " The shipped `default` is not: its definition should become `" + name + "`'s.");
	}

	private void table(StringBuilder md, CellFormat format) {
		md.append("| workload, N |");
		profiles.forEach((profile) -> md.append(' ').append(profile).append(" |"));
		md.append("\n|---|");
		profiles.forEach((profile) -> md.append("---:|"));
		md.append('\n');
		for (Row row : rows) {
			md.append("| ").append(row.workload()).append(", ").append(row.gateways()).append(" |");
			for (String profile : profiles) {
				md.append(' ').append(format.format(row.cells().get(profile), row)).append(" |");
			}
			md.append('\n');
		}
	}

	private static String ratios(Map<Integer, Double> byGateways) {
		if (byGateways.isEmpty()) {
			return "n/a";
		}
		List<String> parts = new ArrayList<>();
		byGateways.forEach((gateways, ratio) -> parts.add(String.format(Locale.ROOT, "%.3f (N=%d)", ratio, gateways)));
		return String.join(", ", parts);
	}

	@FunctionalInterface
	private interface CellFormat {

		String format(Cell cell, Row row);
	}
}
