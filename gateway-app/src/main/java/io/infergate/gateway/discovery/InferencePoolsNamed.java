package io.infergate.gateway.discovery;

import java.util.List;
import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.infergate.routing.pool.PoolProperties;

/**
 * Matches when some configured pool names an {@code inference-pool}: only then does the gateway talk to the
 * Kubernetes API about InferencePools, their pods and InferenceObjectives.
 */
public class InferencePoolsNamed extends SpringBootCondition {

	/** The pools of {@code binder}'s configuration that name an InferencePool. */
	public static List<String> pools(Binder binder) {
		return PoolProperties.configuredPools(binder)
			.entrySet()
			.stream()
			.filter((pool) -> pool.getValue().namesInferencePool())
			.map(Map.Entry::getKey)
			.toList();
	}

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		List<String> pools = pools(Binder.get(context.getEnvironment()));
		return pools.isEmpty() ? ConditionOutcome.noMatch("no pool names an inference-pool")
				: ConditionOutcome.match("pools " + pools + " name an inference-pool");
	}
}
