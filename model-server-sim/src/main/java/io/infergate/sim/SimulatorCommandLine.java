package io.infergate.sim;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.infergate.kvevents.KvEventFrames;
import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.PriorityConvention;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.sim.engine.SchedulingPolicy;
import io.infergate.sim.metrics.EngineFlavor;
import io.infergate.tokenizers.TokenizerException;

/**
 * Parses the simulator's command line ({@code --flag value} or {@code --flag=value}) into a {@link SimulatorConfig}.
 * Every error is an {@link IllegalArgumentException} whose message fits on one line.
 */
final class SimulatorCommandLine {

	static final String USAGE = """
			Usage: java -jar model-server-sim.jar --model NAME [options]

			A vLLM-compatible model-server simulator: OpenAI API (/v1/chat/completions, /v1/completions,
			/v1/responses, /v1/embeddings, /v1/models), vLLM's /v1/rerank, /v1/score, /tokenize and /detokenize,
			/health, Prometheus /metrics and fault injection (/sim/faults).

			Options:
			  --model NAME                   served model name (required)
			  --port N                       listening port, 0 for any free one (default 8000)
			  --host ADDR                    listening address (default 127.0.0.1)
			  --engine vllm|sglang|trtllm    metric names to expose (default vllm)
			  --max-num-seqs N               running-batch limit (default 256)
			  --kv-blocks N                  KV-cache blocks (default 29000)
			  --block-size N                 tokens per KV block (default 16)
			  --max-num-batched-tokens N     token budget per step (default 8192)
			  --max-model-len N              prompt + output token limit (default 32768)
			  --scheduling-policy P          fcfs or priority: admit and preempt by the requests'
			                                 priority (default fcfs)
			  --priority-convention C        vllm (lower priority first) or sglang (higher first)
			                                 (default vllm)
			  --perf-profile NAME            step-time fit: %s (default llama-3.1-8b-h100)
			  --beta0 US                     override: fixed µs per step
			  --beta1 US                     override: µs per uncached prefill token
			  --beta2 US                     override: µs per decoding sequence
			  --lora-modules a,b             LoRA adapters, each served as its own model
			  --max-loras N                  adapter slots (default 1 when adapters are given)
			  --lora-load-delay-ms N         adapter load time (default 100)
			  --time-scale X                 run X times faster than the modelled GPU (default 1)
			  --kv-events-port N             publish vLLM KV-cache events on ZeroMQ at this port, 0 for any
			                                 free one (default: off; vLLM's default port is 5557)
			  --kv-events-replay-port N      serve replay of missed event batches on this port (default: off)
			  --kv-events-topic T            topic frame of every event message (default empty)
			  --kv-events-buffer N           batches kept for replay (default 10000)
			  --tokenizer PATH               tokenize with a model's tokenizer.json (or the directory
			                                 holding it) and the chat template beside it, as vLLM does
			                                 (default: the stand-in, a token per 4 characters)
			  --chat-template FILE           Jinja chat template to use instead of the tokenizer's
			  --help                         print this help
			""".formatted(PerfProfile.names());

	private static final List<String> FLAGS = List.of("model", "port", "host", "engine", "max-num-seqs", "kv-blocks",
			"block-size", "max-num-batched-tokens", "max-model-len", "scheduling-policy", "priority-convention",
			"perf-profile", "beta0", "beta1", "beta2", "lora-modules", "max-loras", "lora-load-delay-ms", "time-scale",
			"kv-events-port", "kv-events-replay-port", "kv-events-topic", "kv-events-buffer", "tokenizer",
			"chat-template");

	static final int DEFAULT_PORT = 8000;

	private SimulatorCommandLine() {
	}

	static boolean wantsHelp(String[] args) {
		return Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h");
	}

	static SimulatorConfig parse(String[] args) {
		Map<String, String> values = new LinkedHashMap<>();
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			if (!arg.startsWith("--")) {
				throw new IllegalArgumentException("unexpected argument '" + arg + "'");
			}
			String flag = arg.substring(2);
			String value;
			int equals = flag.indexOf('=');
			if (equals >= 0) {
				value = flag.substring(equals + 1);
				flag = flag.substring(0, equals);
			}
			else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
				value = args[++i];
			}
			else {
				throw new IllegalArgumentException("--" + flag + " needs a value");
			}
			if (!FLAGS.contains(flag)) {
				throw new IllegalArgumentException("unknown option --" + flag);
			}
			values.put(flag, value);
		}
		String model = values.get("model");
		if (model == null) {
			throw new IllegalArgumentException("--model is required");
		}
		PerfProfile profile = PerfProfile.named(values.getOrDefault("perf-profile", PerfProfile.LLAMA_3_1_8B_H100.name()))
			.withCoefficients(decimalOrNull(values, "beta0"), decimalOrNull(values, "beta1"),
					decimalOrNull(values, "beta2"));
		EngineConfig.Builder engine = EngineConfig.builder()
			.maxNumSeqs(integer(values, "max-num-seqs", EngineConfig.DEFAULT_MAX_NUM_SEQS))
			.numKvBlocks(integer(values, "kv-blocks", EngineConfig.DEFAULT_KV_BLOCKS))
			.blockSize(integer(values, "block-size", EngineConfig.DEFAULT_BLOCK_SIZE))
			.maxNumBatchedTokens(integer(values, "max-num-batched-tokens", EngineConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS))
			.maxModelLen(integer(values, "max-model-len", EngineConfig.DEFAULT_MAX_MODEL_LEN))
			.perfProfile(profile)
			.schedulingPolicy(SchedulingPolicy.fromCliName(values.getOrDefault("scheduling-policy", "fcfs")))
			.priorityConvention(PriorityConvention.fromCliName(values.getOrDefault("priority-convention", "vllm")))
			.loraLoadDelayMillis(integer(values, "lora-load-delay-ms", (int) EngineConfig.DEFAULT_LORA_LOAD_DELAY_MILLIS));
		if (values.containsKey("lora-modules")) {
			engine.loraModules(Arrays.stream(values.get("lora-modules").split(",")).map(String::trim).toList());
		}
		if (values.containsKey("max-loras")) {
			engine.maxLoras(integer(values, "max-loras", 0));
		}
		return SimulatorConfig.builder(model)
			.engineFlavor(EngineFlavor.fromCliName(values.getOrDefault("engine", "vllm")))
			.host(values.getOrDefault("host", SimulatorConfig.DEFAULT_HOST))
			.port(integer(values, "port", DEFAULT_PORT))
			.timeScale(decimal(values, "time-scale", 1.0))
			.engine(engine.build())
			.kvEventsPort(integer(values, "kv-events-port", SimulatorConfig.OFF))
			.kvEventsReplayPort(integer(values, "kv-events-replay-port", SimulatorConfig.OFF))
			.kvEventsTopic(values.getOrDefault("kv-events-topic", ""))
			.kvEventsBufferBatches(integer(values, "kv-events-buffer", KvEventFrames.DEFAULT_REPLAY_BUFFER))
			.promptEncoder(promptEncoder(values.get("tokenizer"), values.get("chat-template")))
			.build();
	}

	/** The stand-in, or the model's tokenizer, loaded now so that a bad file stops the start. */
	private static PromptEncoder promptEncoder(String tokenizer, String chatTemplate) {
		if (tokenizer == null) {
			if (chatTemplate != null) {
				throw new IllegalArgumentException("--chat-template needs --tokenizer");
			}
			return PromptEncoder.standIn();
		}
		Path tokenizerPath = path("tokenizer", tokenizer);
		Path templatePath = (chatTemplate != null) ? path("chat-template", chatTemplate) : null;
		try {
			return PromptEncoder.load(tokenizerPath, templatePath);
		}
		catch (TokenizerException ex) {
			boolean template = templatePath != null
					&& String.valueOf(ex.getMessage()).contains(templatePath.toString());
			throw new IllegalArgumentException((template ? "--chat-template: " : "--tokenizer: ")
					+ firstLine(ex.getMessage()));
		}
		catch (LinkageError ex) {
			throw new IllegalArgumentException(
					"--tokenizer: cannot load the tokenizers library: " + firstLine(ex.toString()));
		}
	}

	private static Path path(String flag, String value) {
		try {
			return Path.of(value);
		}
		catch (InvalidPathException ex) {
			throw new IllegalArgumentException("--" + flag + " is not a path: '" + value + "'");
		}
	}

	private static String firstLine(String message) {
		String text = String.valueOf(message);
		int newline = text.indexOf('\n');
		return (newline < 0) ? text : text.substring(0, newline);
	}

	private static int integer(Map<String, String> values, String flag, int defaultValue) {
		String value = values.get(flag);
		if (value == null) {
			return defaultValue;
		}
		try {
			return Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--" + flag + " must be an integer, was '" + value + "'");
		}
	}

	private static double decimal(Map<String, String> values, String flag, double defaultValue) {
		Double value = decimalOrNull(values, flag);
		return (value != null) ? value : defaultValue;
	}

	private static Double decimalOrNull(Map<String, String> values, String flag) {
		String value = values.get(flag);
		if (value == null) {
			return null;
		}
		try {
			return Double.parseDouble(value);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--" + flag + " must be a number, was '" + value + "'");
		}
	}
}
