package io.infergate.gateway.discovery;

/**
 * An InferencePool named by a pool's {@code inference-pool} setting: {@code <name>} or {@code <namespace>/<name>}.
 *
 * @param namespace The InferencePool's namespace; its pods are selected in the same one.
 * @param name The InferencePool's name.
 */
public record InferencePoolReference(String namespace, String name) {

	/** {@code value}, with {@code defaultNamespace} when it names no namespace. */
	public static InferencePoolReference parse(String value, String defaultNamespace) {
		String trimmed = value.trim();
		int slash = trimmed.indexOf('/');
		return (slash < 0) ? new InferencePoolReference(defaultNamespace, trimmed)
				: new InferencePoolReference(trimmed.substring(0, slash), trimmed.substring(slash + 1));
	}

	@Override
	public String toString() {
		return namespace + "/" + name;
	}
}
