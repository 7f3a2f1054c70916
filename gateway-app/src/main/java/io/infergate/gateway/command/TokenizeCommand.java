package io.infergate.gateway.command;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.PromptSource;
import io.infergate.routing.openai.PromptTokens;
import io.infergate.tokenizers.ModelTokenizer;
import io.infergate.tokenizers.TokenizerException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code tokenize --tokenizer PATH [--chat-template FILE]}: prints the token ids the gateway counts for one request,
 * with the code the gateway uses. Standard input holds one JSON object: {@code {"messages": [...]}} (with optional
 * {@code tools} and {@code chat_template_kwargs}) is rendered through the chat template with the generation prompt,
 * as vLLM's chat endpoint does; {@code {"prompt": "..."}} is tokenized as vLLM tokenizes a completions prompt. The
 * ids go to standard output as one JSON array. Bad input or a bad tokenizer: one line on standard error, exit 2.
 */
public final class TokenizeCommand implements GatewayCommand {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private static final String USAGE = "usage: tokenize --tokenizer PATH [--chat-template FILE] < request.json";

	@Override
	public String name() {
		return "tokenize";
	}

	@Override
	public String description() {
		return "prints the token ids of a {\"messages\": [...]} or {\"prompt\": \"...\"} object read from standard "
				+ "input, as the gateway counts them with --tokenizer PATH [--chat-template FILE]";
	}

	@Override
	public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
		// standard output carries the ids alone: the tokenizer library's start-up lines are not wanted there
		if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
			root.setLevel(ch.qos.logback.classic.Level.OFF);
		}
		String tokenizerPath = null;
		String templatePath = null;
		for (int i = 0; i < args.size(); i++) {
			String arg = args.get(i);
			if ((arg.equals("--tokenizer") || arg.equals("--chat-template")) && i + 1 < args.size()) {
				if (arg.equals("--tokenizer")) {
					tokenizerPath = args.get(++i);
				}
				else {
					templatePath = args.get(++i);
				}
			}
			else {
				return fail(err, "unknown or incomplete argument " + arg + "; " + USAGE);
			}
		}
		if (tokenizerPath == null) {
			return fail(err, "--tokenizer is required; " + USAGE);
		}
		byte[] body;
		try {
			body = in.readAllBytes();
		}
		catch (IOException ex) {
			return fail(err, "cannot read standard input: " + ex.getMessage());
		}
		InferenceApi api;
		try {
			api = api(body);
		}
		catch (IllegalArgumentException ex) {
			return fail(err, ex.getMessage());
		}
		try (ModelTokenizer tokenizer = ModelTokenizer.load(Path.of(tokenizerPath),
				(templatePath != null) ? Path.of(templatePath) : null)) {
			PromptTokens tokens = new PromptSource(body, api).exactTokens(tokenizer);
			if (tokens == null || tokens.ids() == null) {
				return fail(err, "give one prompt: a string or an array of token ids");
			}
			out.println(JSON.writeValueAsString(tokens.ids()));
			return 0;
		}
		catch (TokenizerException | InvalidPathException ex) {
			return fail(err, ex.getMessage());
		}
		catch (InvalidRequestException ex) {
			return fail(err, ex.getMessage());
		}
	}

	/** The API whose input the object holds: chat for {@code messages}, completions for {@code prompt}. */
	private static InferenceApi api(byte[] body) {
		Map<?, ?> request;
		try {
			request = JSON.readValue(body, Map.class);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("standard input is not one JSON object: " + ex.getOriginalMessage());
		}
		if (request == null) {
			throw new IllegalArgumentException("standard input is not one JSON object");
		}
		if (request.containsKey("messages")) {
			return InferenceApi.CHAT_COMPLETIONS;
		}
		if (request.containsKey("prompt")) {
			return InferenceApi.COMPLETIONS;
		}
		throw new IllegalArgumentException("the object has neither \"messages\" nor \"prompt\"");
	}

	private static int fail(PrintStream err, String message) {
		err.println("tokenize: " + message.replace('\n', ' '));
		return 2;
	}
}
