package io.infergate.admin.source;

import java.util.List;

/**
 * The models clients may call and where each goes, for the dashboard's models section. The application that
 * resolves models provides it as a bean; without one the section is left out.
 */
@FunctionalInterface
public interface ModelCatalogSource {

	/** Every model the gateway serves, in the order the dashboard should list them. */
	List<ModelView> models();

	/**
	 * One model.
	 *
	 * @param name the name clients send as {@code model}
	 * @param source {@code configured} for a model under {@code infergate.models}, {@code served} for one found on
	 * a single pool's endpoints
	 * @param targets where its requests go
	 */
	record ModelView(String name, String source, List<Target> targets) {

		public ModelView {
			targets = List.copyOf(targets);
		}
	}

	/**
	 * One target of a model.
	 *
	 * @param pool the pool
	 * @param model the model name the pool's servers know
	 * @param adapter the LoRA adapter, or {@code null}
	 * @param weight the target's share of the model's traffic, or {@code null} when the model has one target
	 */
	record Target(String pool, String model, String adapter, Integer weight) {
	}
}
