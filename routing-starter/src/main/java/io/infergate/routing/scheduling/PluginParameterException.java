package io.infergate.routing.scheduling;

/**
 * A plugin's parameters are each valid alone but cannot work together, or with the rest of the configuration. Thrown
 * by {@link PluginType#create}; startup reports it at the parameter's property path.
 */
public class PluginParameterException extends IllegalArgumentException {

	private final String parameter;

	/**
	 * @param parameter the parameter at fault, as configuration spells it ({@code max-blocks})
	 * @param message what is wrong with it
	 */
	public PluginParameterException(String parameter, String message) {
		super(parameter + ": " + message);
		this.parameter = parameter;
	}

	public String parameter() {
		return parameter;
	}
}
