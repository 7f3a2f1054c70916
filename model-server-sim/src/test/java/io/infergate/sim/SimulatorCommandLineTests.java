package io.infergate.sim;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.infergate.sim.engine.EngineConfig;
import io.infergate.sim.engine.PerfProfile;
import io.infergate.sim.engine.PriorityConvention;
import io.infergate.sim.engine.PromptEncoder;
import io.infergate.sim.engine.SchedulingPolicy;
import io.infergate.sim.metrics.EngineFlavor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SimulatorCommandLineTests {

	@Test
	void defaultsFollowAnEightBillionParameterModelOnOneH100() {
		SimulatorConfig config = SimulatorCommandLine.parse(new String[] { "--model", "m" });

		assertThat(config.port()).isEqualTo(8000);
		assertThat(config.host()).isEqualTo("127.0.0.1");
		assertThat(config.engineFlavor()).isEqualTo(EngineFlavor.VLLM);
		assertThat(config.timeScale()).isEqualTo(1.0);
		EngineConfig engine = config.engine();
		assertThat(engine.maxNumSeqs()).isEqualTo(256);
		assertThat(engine.numKvBlocks()).isEqualTo(29_000);
		assertThat(engine.blockSize()).isEqualTo(16);
		assertThat(engine.maxNumBatchedTokens()).isEqualTo(8192);
		assertThat(engine.maxModelLen()).isEqualTo(32_768);
		assertThat(engine.perfProfile()).isEqualTo(PerfProfile.LLAMA_3_1_8B_H100);
		assertThat(engine.maxLoras()).isZero();
		assertThat(engine.schedulingPolicy()).isEqualTo(SchedulingPolicy.FCFS);
		assertThat(engine.priorityConvention()).isEqualTo(PriorityConvention.VLLM);
	}

	@Test
	void readsEveryOptionInBothSpellings() {
		SimulatorConfig config = SimulatorCommandLine.parse(new String[] { "--model=m", "--port", "0", "--engine",
				"sglang", "--max-num-seqs", "8", "--kv-blocks=100", "--block-size", "32", "--max-num-batched-tokens",
				"512", "--max-model-len", "4096", "--perf-profile", "llama-3.1-8b-a100", "--beta2", "1.5",
				"--lora-modules", "a, b", "--max-loras", "2", "--lora-load-delay-ms", "5", "--time-scale", "10",
				"--host", "0.0.0.0", "--scheduling-policy", "priority", "--priority-convention=sglang" });

		EngineConfig engine = config.engine();
		assertThat(config.engineFlavor()).isEqualTo(EngineFlavor.SGLANG);
		assertThat(config.port()).isZero();
		assertThat(config.host()).isEqualTo("0.0.0.0");
		assertThat(config.timeScale()).isEqualTo(10.0);
		assertThat(engine.maxNumSeqs()).isEqualTo(8);
		assertThat(engine.numKvBlocks()).isEqualTo(100);
		assertThat(engine.blockSize()).isEqualTo(32);
		assertThat(engine.maxNumBatchedTokens()).isEqualTo(512);
		assertThat(engine.maxModelLen()).isEqualTo(4096);
		assertThat(engine.perfProfile().beta0Micros()).isEqualTo(16442);
		assertThat(engine.perfProfile().beta1MicrosPerToken()).isEqualTo(47.84);
		assertThat(engine.perfProfile().beta2MicrosPerSeq()).isEqualTo(1.5);
		assertThat(engine.loraModules()).containsExactly("a", "b");
		assertThat(engine.maxLoras()).isEqualTo(2);
		assertThat(engine.loraLoadDelayMillis()).isEqualTo(5);
		assertThat(engine.schedulingPolicy()).isEqualTo(SchedulingPolicy.PRIORITY);
		assertThat(engine.priorityConvention()).isEqualTo(PriorityConvention.SGLANG);
	}

	@Test
	void kvEventsAreOffUnlessAPortIsGiven() {
		SimulatorConfig off = SimulatorCommandLine.parse(new String[] { "--model", "m" });
		SimulatorConfig on = SimulatorCommandLine.parse(new String[] { "--model", "m", "--kv-events-port", "5557",
				"--kv-events-replay-port", "5558", "--kv-events-topic", "kv@pod-1", "--kv-events-buffer", "100" });

		assertThat(off.kvEventsEnabled()).isFalse();
		assertThat(off.kvEventsBufferBatches()).isEqualTo(10_000);
		assertThat(on.kvEventsEnabled()).isTrue();
		assertThat(on.kvEventsPort()).isEqualTo(5557);
		assertThat(on.kvEventsReplayPort()).isEqualTo(5558);
		assertThat(on.kvEventsTopic()).isEqualTo("kv@pod-1");
		assertThat(on.kvEventsBufferBatches()).isEqualTo(100);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--kv-events-replay-port", "1" }))
			.withMessage("kv-events-replay-port needs kv-events-port");
	}

	@Test
	void badOptionsAreRefusedWithMessagesNamingTheOption() {
		assertThatIllegalArgumentException().isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--port", "1" }))
			.withMessage("--model is required");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--bogus", "1" }))
			.withMessage("unknown option --bogus");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--max-num-seqs", "many" }))
			.withMessage("--max-num-seqs must be an integer, was 'many'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--perf-profile", "tpu" }))
			.withMessageStartingWith("unknown perf profile 'tpu' (valid: llama-3.1-8b-h100");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--engine", "triton" }))
			.withMessage("unknown engine 'triton' (valid: vllm, sglang, trtllm)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--scheduling-policy", "sjf" }))
			.withMessage("unknown --scheduling-policy 'sjf' (valid: fcfs, priority)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--priority-convention", "tgi" }))
			.withMessage("unknown --priority-convention 'tgi' (valid: vllm, sglang)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--kv-blocks", "0" }))
			.withMessage("kv-blocks must be at least 1, was 0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--time-scale" }))
			.withMessage("--time-scale needs a value");
	}

	@Test
	void theStandInTokenizesUnlessATokenizerIsGiven() {
		SimulatorConfig standIn = SimulatorCommandLine.parse(new String[] { "--model", "m" });
		SimulatorConfig directory = SimulatorCommandLine.parse(
				new String[] { "--model", "m", "--tokenizer", TestTokenizers.qwen3().toString() });
		SimulatorConfig file = SimulatorCommandLine.parse(
				new String[] { "--model", "m", "--tokenizer=" + TestTokenizers.llama31().resolve("tokenizer.json") });

		assertThat(standIn.promptEncoder()).isSameAs(PromptEncoder.standIn());
		assertThat(directory.promptEncoder().tokenizerFile()).isEqualTo(TestTokenizers.qwen3().resolve("tokenizer.json"));
		assertThat(directory.promptEncoder().encodePrompt("Hello world")).containsExactly(9707, 1879);
		assertThat(file.promptEncoder().encodePrompt("Hello world")).containsExactly(128000, 9906, 1917);
	}

	@Test
	void aTokenizerThatCannotBeLoadedIsRefusedWithAMessageNamingThePath() {
		Path missing = Path.of("no", "such", "tokenizer-dir").toAbsolutePath();
		Path missingTemplate = Path.of("no", "such", "template.jinja").toAbsolutePath();
		String qwen3 = TestTokenizers.qwen3().toString();

		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--tokenizer", missing.toString() }))
			.withMessage("--tokenizer: no tokenizer file at " + missing);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--tokenizer", qwen3,
					"--chat-template", missingTemplate.toString() }))
			.withMessageStartingWith("--chat-template: cannot read chat template " + missingTemplate);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SimulatorCommandLine.parse(new String[] { "--model", "m", "--chat-template", "t.jinja" }))
			.withMessage("--chat-template needs --tokenizer");
	}

	@Test
	void aBadTokenizerPrintsOneLineNamingThePathAndExitsWithStatusTwo() throws Exception {
		Path missing = Path.of("no", "such", "tokenizer.json").toAbsolutePath();
		Process process = runMain("--model", "m", "--tokenizer", missing.toString());

		String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isEqualTo(2);
		assertThat(stderr.strip()).isEqualTo("model-server-sim: --tokenizer: no tokenizer file at " + missing
				+ " (see --help)");
	}

	@Test
	void aBadFlagPrintsOneLineAndExitsWithStatusTwo() throws Exception {
		Process process = runMain("--model", "m", "--bogus", "1");

		String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isEqualTo(2);
		assertThat(stderr.strip()).isEqualTo("model-server-sim: unknown option --bogus (see --help)");
	}

	@Test
	void helpPrintsUsageAndExitsWithStatusZero() throws Exception {
		Process process = runMain("--help");

		String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isZero();
		assertThat(stdout).startsWith("Usage: java -jar model-server-sim.jar --model NAME")
			.contains("--time-scale X", "--scheduling-policy P", "--priority-convention C", "--tokenizer PATH",
					"--chat-template FILE");
	}

	private static Process runMain(String... args) throws Exception {
		String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
		List<String> command = new java.util.ArrayList<>(
				List.of(java, "-cp", System.getProperty("java.class.path"), SimulatorMain.class.getName()));
		command.addAll(List.of(args));
		return new ProcessBuilder(command).start();
	}
}
