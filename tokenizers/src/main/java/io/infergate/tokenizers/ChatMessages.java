package io.infergate.tokenizers;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * OpenAI chat messages as vLLM hands them to a chat template that expects string content: each message keeps
 * {@code role}, its content as one string (a string as it is; text parts joined one per line; {@code null} or
 * absent as the empty string), and, where present, {@code name}, {@code tool_calls} (their {@code arguments} parsed
 * from a JSON string to an object), {@code tool_call_id} and {@code reasoning_content}. Every other field is dropped,
 * as vLLM drops it.
 */
final class ChatMessages {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private ChatMessages() {
	}

	static List<Map<String, Object>> asEngineSees(List<?> messages) {
		List<Map<String, Object>> result = new ArrayList<>(messages.size());
		for (Object message : messages) {
			if (!(message instanceof Map<?, ?> fields)) {
				throw new TokenizerException("a message is not an object");
			}
			Object role = fields.get("role");
			if (!(role instanceof String)) {
				throw new TokenizerException("a message has no role");
			}
			Map<String, Object> seen = new LinkedHashMap<>();
			seen.put("role", role);
			seen.put("content", content(fields.get("content")));
			if (fields.get("name") instanceof String name) {
				seen.put("name", name);
			}
			if ("assistant".equals(role) && fields.get("tool_calls") instanceof List<?> calls) {
				seen.put("tool_calls", toolCalls(calls));
			}
			if ("assistant".equals(role) && fields.get("reasoning_content") instanceof String reasoning) {
				seen.put("reasoning_content", reasoning);
			}
			if ("tool".equals(role) && fields.containsKey("tool_call_id")) {
				seen.put("tool_call_id", fields.get("tool_call_id"));
			}
			result.add(seen);
		}
		return result;
	}

	private static String content(Object content) {
		if (content == null) {
			return "";
		}
		if (content instanceof String text) {
			return text;
		}
		if (content instanceof List<?> parts) {
			StringBuilder text = new StringBuilder();
			boolean first = true;
			for (Object part : parts) {
				String partText = (part instanceof String string) ? string
						: (part instanceof Map<?, ?> fields && fields.get("text") instanceof String value) ? value
								: null;
				if (partText != null) {
					if (!first) {
						text.append('\n');
					}
					text.append(partText);
					first = false;
				}
			}
			return text.toString();
		}
		throw new TokenizerException("a message's content is neither a string nor a list of parts");
	}

	private static List<Object> toolCalls(List<?> calls) {
		List<Object> result = new ArrayList<>(calls.size());
		for (Object call : calls) {
			if (call instanceof Map<?, ?> fields && fields.get("function") instanceof Map<?, ?> function
					&& function.get("arguments") instanceof String arguments) {
				Map<Object, Object> parsedFunction = new LinkedHashMap<>(function);
				parsedFunction.put("arguments", parsedArguments(arguments));
				Map<Object, Object> parsedCall = new LinkedHashMap<>(fields);
				parsedCall.put("function", parsedFunction);
				result.add(parsedCall);
			}
			else {
				result.add(call);
			}
		}
		return result;
	}

	private static Object parsedArguments(String arguments) {
		try {
			return JSON.readValue(arguments, Object.class);
		}
		catch (JacksonException ex) {
			return arguments;
		}
	}
}
