package io.infergate.routing.prefix;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;

import io.infergate.routing.endpoint.EndpointId;

/**
 * A hash ring of endpoints with {@code replication} virtual nodes each, for consistent hashing with bounded loads
 * (KubeAI PrefixHash).
 * <p>
 * Virtual node r of endpoint e sits at {@code XXH3("host:port#r")}. Members are ordered by id and points by (position,
 * member), so the ring depends only on the set of members: two gateway replicas that know the same endpoints build the
 * same ring whatever order they learnt them in, and no randomness is involved. Immutable; building costs
 * O(m·r·log(m·r)) for m members, so callers keep a ring while its members are unchanged.
 */
public final class ConsistentHashRing {

	private static final Hasher64 XXH3 = Hashing.xxh3_64();

	private final EndpointId[] members;

	private final Map<EndpointId, Integer> ordinals;

	/** Positions, ascending. */
	private final long[] points;

	/** Member ordinal of each point. */
	private final int[] owners;

	private final int replication;

	private ConsistentHashRing(EndpointId[] members, int replication) {
		this.members = members;
		this.replication = replication;
		this.ordinals = new HashMap<>(members.length * 2);
		for (int i = 0; i < members.length; i++) {
			ordinals.put(members[i], i);
		}
		int count = members.length * replication;
		long[] positions = new long[count];
		Integer[] order = new Integer[count];
		for (int m = 0; m < members.length; m++) {
			String id = members[m].toString();
			for (int r = 0; r < replication; r++) {
				int point = m * replication + r;
				positions[point] = XXH3.hashCharsToLong(id + "#" + r);
				order[point] = point;
			}
		}
		Arrays.sort(order, (a, b) -> {
			int byPosition = Long.compare(positions[a], positions[b]);
			return (byPosition != 0) ? byPosition : Integer.compare(a, b);
		});
		this.points = new long[count];
		this.owners = new int[count];
		for (int i = 0; i < count; i++) {
			points[i] = positions[order[i]];
			owners[i] = order[i] / replication;
		}
	}

	/** The ring of {@code members} (duplicates ignored) with {@code replication} points each. */
	public static ConsistentHashRing of(Collection<EndpointId> members, int replication) {
		if (replication < 1) {
			throw new IllegalArgumentException("replication must be positive, got " + replication);
		}
		return new ConsistentHashRing(new TreeSet<>(members).toArray(new EndpointId[0]), replication);
	}

	/**
	 * The hash of a request's routing key: the first {@code prefixChars} characters of the prompt (all of it when
	 * shorter) and the adapter ({@code null} as empty), combined as {@code XXH3(XXH3(prefix), XXH3(adapter))}.
	 */
	public static long keyHash(String prompt, int prefixChars, String adapter) {
		String text = (prompt != null) ? prompt : "";
		String prefix = (text.length() > prefixChars) ? text.substring(0, prefixChars) : text;
		return XXH3.hashLongLongToLong(XXH3.hashCharsToLong(prefix),
				XXH3.hashCharsToLong((adapter != null) ? adapter : ""));
	}

	public int replication() {
		return replication;
	}

	public int memberCount() {
		return members.length;
	}

	public EndpointId member(int ordinal) {
		return members[ordinal];
	}

	/** The member's ordinal, or −1 when it is not on the ring. */
	public int ordinalOf(EndpointId endpoint) {
		Integer ordinal = ordinals.get(endpoint);
		return (ordinal != null) ? ordinal : -1;
	}

	public int pointCount() {
		return points.length;
	}

	/** The first point at or clockwise after {@code hash}, wrapping past the largest position to the first. */
	public int pointAtOrAfter(long hash) {
		int index = Arrays.binarySearch(points, hash);
		if (index < 0) {
			index = -index - 1;
		}
		while (index > 0 && points[index - 1] == hash) {
			index--; // the first of equal positions
		}
		return (index == points.length) ? 0 : index;
	}

	/** The point after {@code point}, clockwise. */
	public int nextPoint(int point) {
		return (point + 1 == points.length) ? 0 : point + 1;
	}

	/** The ordinal of the member owning {@code point}. */
	public int ownerAt(int point) {
		return owners[point];
	}
}
