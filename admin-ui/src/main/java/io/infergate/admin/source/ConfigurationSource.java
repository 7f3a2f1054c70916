package io.infergate.admin.source;

import io.infergate.routing.engine.LiveConfiguration;

/**
 * The running configuration's version and its latest reload, for the dashboard's header and its configuration view.
 * The engine's live configuration provides it; without one the section is left out.
 */
@FunctionalInterface
public interface ConfigurationSource {

	LiveConfiguration.Status version();
}
