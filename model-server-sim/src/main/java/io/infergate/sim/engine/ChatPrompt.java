package io.infergate.sim.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.simtokenizer.StandInChatTemplate;

/**
 * A chat request's prompt as a {@link PromptEncoder} reads it: each message's role and text, which the stand-in
 * {@link StandInChatTemplate} renders, and the request's own JSON (messages, tools, template arguments, flags),
 * which a model's chat template renders. Implementations may read the JSON lazily, so that the stand-in never pays for it;
 * a malformed field is then reported by a {@link io.infergate.tokenizers.TokenizerException} naming it.
 */
public interface ChatPrompt {

	/** Each message's role and text, parts joined: what {@link StandInChatTemplate#render} renders. */
	List<StandInChatTemplate.Message> messages();

	/** The messages as parsed JSON: maps, lists, strings, numbers, booleans and nulls. */
	List<?> jsonMessages();

	/** The request's {@code tools} as parsed JSON, or {@code null} when it has none. */
	List<?> tools();

	/** The request's {@code chat_template_kwargs}, empty when it has none. */
	Map<String, ?> templateArguments();

	/** Whether the rendering ends with the assistant's generation prompt ({@code add_generation_prompt}). */
	boolean addGenerationPrompt();

	/** Whether the tokenizer adds its special tokens to the rendering ({@code add_special_tokens}). */
	boolean addSpecialTokens();

	/**
	 * A conversation given as roles and texts, as a chat completion request carrying only these messages: no tools,
	 * no template arguments, the generation prompt added, no special tokens added.
	 */
	static ChatPrompt of(List<StandInChatTemplate.Message> messages) {
		List<Map<String, Object>> json = new ArrayList<>(messages.size());
		for (StandInChatTemplate.Message message : messages) {
			Map<String, Object> fields = new LinkedHashMap<>();
			fields.put("role", message.role());
			fields.put("content", message.content());
			json.add(fields);
		}
		return new ConversationPrompt(List.copyOf(messages), json);
	}
}
