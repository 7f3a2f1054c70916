package io.infergate.tokenizers.template;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One of jinja2's compile-time frames (the template, a loop body, a loop's else, a macro, a block set, a with or
 * generation body) and its symbol analysis, as jinja2's {@code idtracking} does it. The analysis finds the names a
 * frame assigns before reading them at its own level: jinja2 starts those as undefined for the whole frame, hiding
 * any outer or caller value even from nested loops and macros that run before the assignment.
 */
final class Frame {

	private enum Kind {

		RESOLVE, ALIAS, UNDEFINED, PARAMETER

	}

	private record Load(String name) {

	}

	private record Store(String name) {

	}

	private record Parameter(String name) {

	}

	/** An if statement's branches: its body, its elif chain and its else. */
	private record Branches(List<List<Object>> branches) {

	}

	private static final String[] NONE = new String[0];

	final Frame parent;

	private final List<Object> events = new ArrayList<>();

	private Map<String, Kind> kinds;

	/** The names this frame starts as undefined; set once the whole template is parsed. */
	String[] undefined = NONE;

	Frame(Frame parent) {
		this.parent = parent;
	}

	List<Object> events() {
		return this.events;
	}

	static void load(List<Object> events, String name) {
		events.add(new Load(name));
	}

	static void store(List<Object> events, String name) {
		events.add(new Store(name));
	}

	static void parameter(List<Object> events, String name) {
		events.add(new Parameter(name));
	}

	static void branches(List<Object> events, List<List<Object>> branches) {
		events.add(new Branches(branches));
	}

	/** Analyzes this frame; its parent must have been analyzed first. */
	void analyze() {
		Symbols symbols = new Symbols(this.parent, new HashMap<>(), new HashSet<>());
		symbols.process(this.events);
		this.kinds = symbols.kinds;
		List<String> names = new ArrayList<>();
		symbols.kinds.forEach((name, kind) -> {
			if (kind == Kind.UNDEFINED) {
				names.add(name);
			}
		});
		this.undefined = names.toArray(NONE);
		this.events.clear();
	}

	private boolean hasReference(String name) {
		for (Frame frame = this; frame != null; frame = frame.parent) {
			if (frame.kinds != null && frame.kinds.containsKey(name)) {
				return true;
			}
		}
		return false;
	}

	/** Marks this frame's initially undefined names in the scope that runs it. */
	void enter(Scope scope) {
		for (String name : this.undefined) {
			scope.set(name, Scope.UNDEFINED);
		}
	}

	private record Symbols(Frame frame, Map<String, Kind> kinds, Set<String> stores) {

		private boolean hasReference(String name) {
			return this.kinds.containsKey(name) || (this.frame != null && this.frame.hasReference(name));
		}

		private Kind outerOr(String name, Kind otherwise) {
			return (this.frame != null && this.frame.hasReference(name)) ? Kind.ALIAS : otherwise;
		}

		private Symbols copy() {
			return new Symbols(this.frame, new HashMap<>(this.kinds), new HashSet<>(this.stores));
		}

		void process(List<Object> events) {
			for (Object event : events) {
				if (event instanceof Load load) {
					if (!hasReference(load.name())) {
						this.kinds.put(load.name(), Kind.RESOLVE);
					}
				}
				else if (event instanceof Store store) {
					this.stores.add(store.name());
					if (!this.kinds.containsKey(store.name())) {
						this.kinds.put(store.name(), outerOr(store.name(), Kind.UNDEFINED));
					}
				}
				else if (event instanceof Parameter parameter) {
					this.stores.add(parameter.name());
					this.kinds.put(parameter.name(), Kind.PARAMETER);
				}
				else {
					branchUpdate(((Branches) event).branches());
				}
			}
		}

		private void branchUpdate(List<List<Object>> branches) {
			List<Symbols> results = new ArrayList<>();
			for (List<Object> branch : branches) {
				Symbols copy = copy();
				copy.process(branch);
				results.add(copy);
			}
			Set<String> branchStores = new HashSet<>();
			for (Symbols result : results) {
				branchStores.addAll(result.stores);
			}
			branchStores.removeAll(this.stores);
			for (Symbols result : results) {
				this.kinds.putAll(result.kinds);
				this.stores.addAll(result.stores);
			}
			for (String name : branchStores) {
				this.kinds.put(name, outerOr(name, Kind.RESOLVE));
			}
		}

	}

}
