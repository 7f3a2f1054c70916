package io.infergate.sim.http;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

import io.infergate.simtokenizer.StandInChatTemplate;

/** Chat messages of a request body, each with its role and its text. */
final class ChatMessages {

	private ChatMessages() {
	}

	/** The messages of {@code messages}, a non-empty array of objects with a string {@code role}. */
	static List<StandInChatTemplate.Message> read(JsonNode messages, String field) throws OpenAiError {
		if (messages == null || !messages.isArray() || messages.isEmpty()) {
			throw OpenAiError.badRequest("'" + field + "' is required and must be a non-empty array.", field);
		}
		List<StandInChatTemplate.Message> read = new ArrayList<>(messages.size());
		for (JsonNode message : messages.values()) {
			JsonNode role = message.get("role");
			if (role == null || !role.isString()) {
				throw OpenAiError.badRequest("Each message needs a string 'role'.", field);
			}
			read.add(new StandInChatTemplate.Message(role.stringValue(), text(message.get("content"), field)));
		}
		return read;
	}

	/** A message's text: a string, an array of parts whose {@code text} fields are joined, or nothing. */
	static String text(JsonNode content, String field) throws OpenAiError {
		if (content == null || content.isNull()) {
			return "";
		}
		if (content.isString()) {
			return content.stringValue();
		}
		if (content.isArray()) {
			StringBuilder text = new StringBuilder();
			for (JsonNode part : content.values()) {
				JsonNode partText = part.get("text");
				if (partText != null && partText.isString()) {
					text.append(partText.stringValue());
				}
			}
			return text.toString();
		}
		throw OpenAiError.badRequest("A message's 'content' must be a string or an array of parts.", field);
	}
}
