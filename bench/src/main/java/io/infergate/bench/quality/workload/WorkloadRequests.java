package io.infergate.bench.quality.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.infergate.bench.quality.workload.Workload.Captured;
import io.infergate.bench.quality.workload.Workload.LoraMix;
import io.infergate.bench.quality.workload.Workload.MultiTurn;
import io.infergate.bench.quality.workload.Workload.RandomPrompts;
import io.infergate.bench.quality.workload.Workload.Shape;
import io.infergate.bench.quality.workload.Workload.SharedPrefix;
import io.infergate.bench.quality.workload.Workload.Tenant;
import io.infergate.simtokenizer.StandInChatTemplate.Message;

/**
 * The requests of a workload, generated on demand and deterministically: request {@code i} (or conversation
 * {@code c}) is the same for a seed whatever was generated before it, so replays repeat and memory stays flat. Texts
 * are random lower-case letters and spaces, 4 characters per token, the simulator tokenizer's ratio.
 */
public final class WorkloadRequests {

	private static final String SYSTEM = "system";

	private static final String USER = "user";

	private static final String ASSISTANT = "assistant";

	private static final int SYSTEM_TEXT = 1;

	private static final int QUESTION = 2;

	private static final int ORDER = 3;

	private static final int ADAPTER = 4;

	private static final int CONVERSATION = 5;

	private static final int PROMPT = 6;

	private static final int TENANT = 7;

	private final long seed;

	private final Shape base;

	private final Map<String, Double> adapterWeights;

	private final String[] systemPrompts;

	private final List<Tenant> tenants;

	private final double totalShare;

	private int[] passOrder;

	private long passNumber = -1;

	public WorkloadRequests(Workload workload) {
		this.seed = workload.seed();
		if (workload.shape() instanceof LoraMix mix) {
			this.base = mix.base();
			this.adapterWeights = mix.adapterWeights();
		}
		else {
			this.base = workload.shape();
			this.adapterWeights = Map.of();
		}
		this.systemPrompts = (base instanceof SharedPrefix shared) ? new String[shared.groups()] : null;
		this.tenants = workload.tenants();
		this.totalShare = tenants.stream().mapToDouble(Tenant::share).sum();
	}

	/**
	 * The tenant that sends request {@code id} (of a workload of independent requests) or conversation {@code id} (of
	 * a multi-turn one): drawn by share, from the seed and the id alone; null when the workload names no tenants.
	 */
	public Tenant tenant(long id) {
		if (base instanceof Captured captured) {
			return captured.trace().tenant((int) id);
		}
		if (tenants.isEmpty()) {
			return null;
		}
		double draw = random(TENANT, id).nextDouble() * totalShare;
		for (Tenant tenant : tenants) {
			draw -= tenant.share();
			if (draw < 0) {
				return tenant;
			}
		}
		return tenants.get(tenants.size() - 1);
	}

	/** Whether requests come as conversations ({@link #conversation}) rather than one by one ({@link #request}). */
	public boolean conversational() {
		return base instanceof MultiTurn;
	}

	/** Request {@code index} of a non-conversational workload. */
	public BenchRequest request(long index) {
		if (base instanceof SharedPrefix shared) {
			return sharedPrefix(shared, index);
		}
		if (base instanceof Captured captured) {
			return captured.trace().request((int) index);
		}
		if (base instanceof RandomPrompts random) {
			SplittableRandom draws = random(PROMPT, index);
			int promptTokens = random.promptLen().sample(draws, 1);
			int outputTokens = random.outputLen().sample(draws, 1);
			String text = text(draws, promptTokens);
			return new BenchRequest(null, adapter(index), List.of(new Message(USER, text)), outputTokens);
		}
		throw new IllegalStateException("a " + base.type() + " workload is made of conversations");
	}

	private BenchRequest sharedPrefix(SharedPrefix shared, long index) {
		int perPass = shared.groups() * shared.promptsPerGroup();
		long pass = index / perPass;
		if (pass != passNumber) {
			passOrder = shuffledPass(perPass, pass);
			passNumber = pass;
		}
		int group = passOrder[(int) (index % perPass)] / shared.promptsPerGroup();
		String system = systemPrompts[group];
		if (system == null) {
			SplittableRandom draws = random(SYSTEM_TEXT, group);
			system = text(draws, shared.systemPromptLen().sample(draws, 1));
			systemPrompts[group] = system;
		}
		SplittableRandom draws = random(QUESTION, index);
		int questionTokens = shared.questionLen().sample(draws, 1);
		int outputTokens = shared.outputLen().sample(draws, 1);
		return new BenchRequest(null, adapter(group), List.of(new Message(SYSTEM, system),
				new Message(USER, text(draws, questionTokens))), outputTokens);
	}

	private int[] shuffledPass(int size, long pass) {
		int[] order = new int[size];
		for (int i = 0; i < size; i++) {
			order[i] = i;
		}
		SplittableRandom draws = random(ORDER, pass);
		for (int i = size - 1; i > 0; i--) {
			int j = draws.nextInt(i + 1);
			int swap = order[i];
			order[i] = order[j];
			order[j] = swap;
		}
		return order;
	}

	/** Conversation {@code id} of a multi-turn workload. */
	public Conversation conversation(int id) {
		if (!(base instanceof MultiTurn multiTurn)) {
			throw new IllegalStateException("a " + base.type() + " workload has no conversations");
		}
		SplittableRandom draws = random(CONVERSATION, id);
		int systemTokens = multiTurn.systemPromptLen().sample(draws, 0);
		String system = (systemTokens > 0) ? text(draws, systemTokens) : null;
		int turns = multiTurn.turns();
		String[] userTexts = new String[turns];
		String[] replies = new String[turns];
		int[] outputTokens = new int[turns];
		long[] thinkMicros = new long[turns];
		for (int turn = 0; turn < turns; turn++) {
			userTexts[turn] = text(draws, multiTurn.userTurnLen().sample(draws, 1));
			outputTokens[turn] = multiTurn.outputLen().sample(draws, 1);
			replies[turn] = text(draws, outputTokens[turn]);
			thinkMicros[turn] = multiTurn.thinkTimeMs().sample(draws, 0) * 1000L;
		}
		return new Conversation("conversation-" + id, adapter(id), system, userTexts, replies, outputTokens,
				thinkMicros);
	}

	/** One conversation's turns; turn k's prompt holds every earlier turn and its reply. */
	public static final class Conversation {

		private final String sessionKey;

		private final String adapter;

		private final String system;

		private final String[] userTexts;

		private final String[] replies;

		private final int[] outputTokens;

		private final long[] thinkMicros;

		Conversation(String sessionKey, String adapter, String system, String[] userTexts, String[] replies,
				int[] outputTokens, long[] thinkMicros) {
			this.sessionKey = sessionKey;
			this.adapter = adapter;
			this.system = system;
			this.userTexts = userTexts;
			this.replies = replies;
			this.outputTokens = outputTokens;
			this.thinkMicros = thinkMicros;
		}

		public int turns() {
			return userTexts.length;
		}

		public BenchRequest turn(int turn) {
			List<Message> messages = new ArrayList<>(2 * turn + 2);
			if (system != null) {
				messages.add(new Message(SYSTEM, system));
			}
			for (int earlier = 0; earlier < turn; earlier++) {
				messages.add(new Message(USER, userTexts[earlier]));
				messages.add(new Message(ASSISTANT, replies[earlier]));
			}
			messages.add(new Message(USER, userTexts[turn]));
			return new BenchRequest(sessionKey, adapter, List.copyOf(messages), outputTokens[turn]);
		}

		/** Time the user takes after turn {@code turn}'s reply before sending the next turn, µs. */
		public long thinkMicrosAfter(int turn) {
			return thinkMicros[turn];
		}
	}

	private String adapter(long id) {
		if (adapterWeights.isEmpty()) {
			return null;
		}
		double total = 0;
		for (double weight : adapterWeights.values()) {
			total += weight;
		}
		double draw = random(ADAPTER, id).nextDouble() * total;
		String chosen = null;
		// Map.copyOf has no stable order: walk the names sorted so a seed always gives the same adapter.
		for (String name : adapterWeights.keySet().stream().sorted().toList()) {
			chosen = name;
			draw -= adapterWeights.get(name);
			if (draw < 0) {
				break;
			}
		}
		return LoraMix.NO_ADAPTER.equals(chosen) ? null : chosen;
	}

	private SplittableRandom random(int stream, long id) {
		return new SplittableRandom(mix(seed + mix(stream * 0x9E3779B97F4A7C15L + id)));
	}

	/** SplitMix64's finalizer: spreads nearby seeds over unrelated streams. */
	public static long mix(long z) {
		z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
		z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
		return z ^ (z >>> 31);
	}

	/** Random text of {@code tokens} × 4 characters: letters, with a space after every fifth or so. */
	static String text(SplittableRandom random, int tokens) {
		return appendText(new StringBuilder(tokens * 4), random, tokens * 4).toString();
	}

	/** Appends {@code length} random characters (none when not positive): letters, and a space one time in 32. */
	public static StringBuilder appendText(StringBuilder text, SplittableRandom random, int length) {
		long bits = 0;
		int bitsLeft = 0;
		for (int i = 0; i < length; i++) {
			if (bitsLeft < 5) {
				bits = random.nextLong();
				bitsLeft = 64;
			}
			int symbol = (int) (bits & 31);
			bits >>>= 5;
			bitsLeft -= 5;
			text.append((symbol < 26) ? (char) ('a' + symbol) : ' ');
		}
		return text;
	}
}
