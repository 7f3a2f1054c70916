package io.infergate.routing.pool;

/**
 * How a pool's engine reads a request's {@code priority}, {@code infergate.pools.<name>.engine-priority}: the gateway
 * writes the request's priority into the body it forwards in the engine's own convention, so that an engine started
 * with priority scheduling (vLLM's {@code --scheduling-policy priority}, SGLang's
 * {@code --enable-priority-scheduling}) serves the important requests first.
 * <p>
 * What is forwarded is the request's <em>engine level</em> ({@link #level}), which keeps Infergate's convention
 * (larger is more important): the request's priority, times {@value #SHARE_LEVELS}, plus a finer step within it for
 * its tenant's fair share, so that within one priority a tenant that has used less of the pool goes ahead of one that
 * has used more in the engine's waiting queue too, and no tenant's share ever lifts a request above a higher
 * priority.
 */
public enum EnginePriority {

	/** Nothing is forwarded: a {@code priority} the client sent is taken out of the body. */
	NONE("none"),

	/** vLLM: lower values are served first, so the level is negated. */
	VLLM("vllm"),

	/** SGLang with its default convention: higher values are served first, so the level is sent as it is. */
	SGLANG("sglang");

	/** Steps of fair share within one priority. */
	public static final int SHARE_LEVELS = 16;

	/** The largest priority magnitude a request may have; larger ones are clamped (a body's is refused). */
	public static final int MAX_PRIORITY = 1_000_000;

	private final String configName;

	EnginePriority(String configName) {
		this.configName = configName;
	}

	public String configName() {
		return configName;
	}

	/**
	 * A request's engine level, larger more important: {@code priority * 16 + (15 - shareRank)}.
	 *
	 * @param priority the request's priority in Infergate's convention, clamped to ±{@value #MAX_PRIORITY}
	 * @param shareRank where its tenant's use of the pool stands among the tenants of its priority, from 0 (the one
	 * that has used least) to 15 (the one that has used most)
	 */
	public static int level(int priority, int shareRank) {
		int clamped = Math.max(-MAX_PRIORITY, Math.min(MAX_PRIORITY, priority));
		int rank = Math.max(0, Math.min(SHARE_LEVELS - 1, shareRank));
		return clamped * SHARE_LEVELS + (SHARE_LEVELS - 1 - rank);
	}

	/**
	 * The {@code priority} value to write into the forwarded body for a request at {@code level}, or {@code null}
	 * when nothing is forwarded.
	 */
	public Integer forwarded(int level) {
		return switch (this) {
			case NONE -> null;
			case VLLM -> -level;
			case SGLANG -> level;
		};
	}
}
