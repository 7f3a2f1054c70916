package io.infergate.gateway.route;

import java.util.concurrent.Executor;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;

import io.infergate.gateway.error.OpenAiError;
import io.infergate.gateway.error.OpenAiErrorResponses;
import io.infergate.routing.engine.InferenceEngine;
import io.infergate.routing.model.ModelRoute;
import io.infergate.routing.openai.InferenceApi;
import io.infergate.routing.openai.InvalidRequestException;
import io.infergate.routing.openai.TokenizerEndpoints;
import io.infergate.routing.pool.EngineType;
import io.infergate.tokenizers.ModelTokenizer;

/**
 * Answers {@code POST /tokenize} and {@code /detokenize} for a pool whose engine has no such endpoints
 * ({@link EngineType#servesTokenizerEndpoints()}: TensorRT-LLM's servers): with the model's tokenizer when the model
 * or its pool has one ({@link TokenizerEndpoints}; 400 for a body that is not such a request), else 404 saying which
 * property would give it one. Every other request, and these for an engine that serves them, go on to the engine.
 * After the limits, which count the call; on the tokenizer threads, never the event loop.
 */
public class TokenizerEndpointsFilter implements GatewayFilter {

	private final InferenceEngine engine;

	public TokenizerEndpointsFilter(InferenceEngine engine) {
		this.engine = engine;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		InferenceContext context = InferenceContext.find(exchange);
		if (context.api().work() != InferenceApi.Work.TOKENIZER || context.route() == null) {
			return chain.filter(exchange);
		}
		ModelRoute route = context.route();
		EngineType pooled = engine.engineOf(route.pool());
		if (pooled == null || pooled.servesTokenizerEndpoints()) {
			return chain.filter(exchange);
		}
		ModelTokenizer tokenizer = engine.modelTokenizer(route);
		if (tokenizer == null) {
			return OpenAiErrorResponses.write(exchange, OpenAiError.noSuchEndpoint("The model's servers ("
					+ pooled.configName() + ") have no " + context.api().path() + " endpoint, and the gateway has no "
					+ "tokenizer for the model to answer it (infergate.pools." + route.pool() + ".tokenizer.path)."));
		}
		Mono<Object> answer = Mono.fromCallable(() -> {
			try {
				return (Object) TokenizerEndpoints.answer(context.api(), context.body(), tokenizer);
			}
			catch (InvalidRequestException ex) {
				return OpenAiError.invalidRequest(ex);
			}
		}).subscribeOn(ResolveModelFilter.TOKENIZING);
		Executor loop = ExchangeEventLoop.of(exchange);
		if (loop != null) {
			answer = answer.publishOn(Schedulers.fromExecutor(loop));
		}
		return answer.flatMap((result) -> (result instanceof OpenAiError error)
				? OpenAiErrorResponses.write(exchange, error)
				: OpenAiErrorResponses.writeJson(exchange, HttpStatus.OK, (String) result));
	}
}
