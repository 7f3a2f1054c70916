package io.infergate.gateway.demo;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.infergate.routing.tokenization.PromptTextTokenizerType;
import io.infergate.simtokenizer.SimulatorPromptTokenizer;

/**
 * {@code tokenizer.type: simulator}, the simulated pods' stand-in tokenization ({@link SimulatorPromptTokenizer}), for
 * pools of simulated pods wherever they run: demo mode's, the bench's, the compose files'. The routing starter knows
 * nothing of the simulator; the gateway application adds the type.
 */
@Configuration(proxyBeanMethods = false)
public class SimulatorTokenizerConfiguration {

	@Bean
	PromptTextTokenizerType simulatorTokenizerType() {
		return new PromptTextTokenizerType(SimulatorPromptTokenizer.TYPE, SimulatorPromptTokenizer::encode);
	}
}
