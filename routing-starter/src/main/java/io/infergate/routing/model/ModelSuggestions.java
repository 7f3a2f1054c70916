package io.infergate.routing.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Known model names close to one that matched nothing, for the 404's "did you mean". A name is close when, ignoring
 * case, it is at most d edits away (insertions, deletions, substitutions; d = 1 for names of up to 4 characters,
 * then a quarter of the length, at most 4), or when one contains the other and the shorter has at least 3
 * characters. At most {@value #MAX_SUGGESTIONS}, fewest edits first.
 * <p>
 * Only the first {@value #MAX_COMPARED_CHARS} characters of what was asked are compared, so a client cannot make the
 * gateway work hard by sending a long name.
 */
public final class ModelSuggestions {

	static final int MAX_SUGGESTIONS = 3;

	static final int MAX_COMPARED_CHARS = 256;

	private ModelSuggestions() {
	}

	public static List<String> closeTo(String asked, Collection<String> known) {
		String wanted = asked.substring(0, Math.min(asked.length(), MAX_COMPARED_CHARS)).toLowerCase(Locale.ROOT);
		int allowed = Math.min(4, Math.max(1, wanted.length() / 4));
		record Candidate(String name, int distance) {
		}
		List<Candidate> close = new ArrayList<>();
		for (String name : known) {
			String candidate = name.toLowerCase(Locale.ROOT);
			int distance = distanceAtMost(wanted, candidate, allowed);
			boolean contains = Math.min(wanted.length(), candidate.length()) >= 3
					&& (candidate.contains(wanted) || wanted.contains(candidate));
			if (distance <= allowed || contains) {
				close.add(new Candidate(name, Math.min(distance, allowed + 1)));
			}
		}
		return close.stream()
			.sorted(Comparator.comparingInt(Candidate::distance).thenComparing(Candidate::name))
			.limit(MAX_SUGGESTIONS)
			.map(Candidate::name)
			.toList();
	}

	/**
	 * The edit distance between {@code a} and {@code b} when it is at most {@code limit}, else {@code limit + 1}:
	 * only the band of width 2·limit+1 around the diagonal is computed.
	 */
	static int distanceAtMost(String a, String b, int limit) {
		if (Math.abs(a.length() - b.length()) > limit) {
			return limit + 1;
		}
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			int from = Math.max(1, i - limit);
			int to = Math.min(b.length(), i + limit);
			current[0] = i;
			if (from > 1) {
				current[from - 1] = limit + 1;
			}
			int rowMinimum = (from == 1) ? current[0] : limit + 1;
			for (int j = from; j <= to; j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				int deletion = (j <= i - 1 + limit) ? previous[j] + 1 : limit + 1;
				int insertion = current[j - 1] + 1;
				current[j] = Math.min(substitution, Math.min(deletion, insertion));
				rowMinimum = Math.min(rowMinimum, current[j]);
			}
			if (to < b.length()) {
				current[to + 1] = limit + 1;
			}
			if (rowMinimum > limit) {
				return limit + 1;
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return Math.min(previous[b.length()], limit + 1);
	}
}
