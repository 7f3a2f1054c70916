package io.infergate.admin.web;

import org.springframework.core.io.ClassPathResource;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/** The dashboard's paths. */
public final class DashboardRoutes {

	private DashboardRoutes() {
	}

	public static RouterFunction<ServerResponse> of(DashboardHandlers handlers, RuntimeChangeHandlers changes) {
		return RouterFunctions.route()
			.GET("/admin", handlers::page)
			.GET("/admin/", handlers::page)
			.GET("/admin/api/feed", handlers::feed)
			.GET("/admin/api/decisions", handlers::decisions)
			.GET("/admin/api/history", handlers::history)
			.GET("/admin/api/config", handlers::config)
			.GET("/admin/api/what-if", handlers::whatIf)
			.GET("/admin/api/changes", changes::list)
			.POST("/admin/api/profiles/{profile}/weights", changes::applyWeights)
			.POST("/admin/api/changes/{id}/revert", changes::revert)
			.add(RouterFunctions.resources("/admin/assets/**", new ClassPathResource("infergate-admin/assets/")))
			.build();
	}
}
