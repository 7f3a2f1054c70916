package io.infergate.routing.auth;

import java.util.List;
import java.util.regex.Pattern;

/** The model names a key may call: globs where {@code *} matches any run of characters and {@code ?} one. */
public final class ModelGlobs {

	private final boolean everyModel;

	private final List<Pattern> patterns;

	public ModelGlobs(List<String> globs) {
		this.everyModel = globs.contains("*");
		this.patterns = globs.stream().map(ModelGlobs::compile).toList();
	}

	public boolean matches(String model) {
		if (everyModel) {
			return true;
		}
		for (Pattern pattern : patterns) {
			if (pattern.matcher(model).matches()) {
				return true;
			}
		}
		return false;
	}

	private static Pattern compile(String glob) {
		StringBuilder regex = new StringBuilder(glob.length() + 8);
		StringBuilder literal = new StringBuilder();
		for (int i = 0; i < glob.length(); i++) {
			char c = glob.charAt(i);
			if (c == '*' || c == '?') {
				if (literal.length() > 0) {
					regex.append(Pattern.quote(literal.toString()));
					literal.setLength(0);
				}
				regex.append((c == '*') ? ".*" : ".");
			}
			else {
				literal.append(c);
			}
		}
		if (literal.length() > 0) {
			regex.append(Pattern.quote(literal.toString()));
		}
		return Pattern.compile(regex.toString(), Pattern.DOTALL);
	}
}
