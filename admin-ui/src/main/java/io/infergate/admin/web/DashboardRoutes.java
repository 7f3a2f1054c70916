package io.infergate.admin.web;

import org.springframework.core.io.ClassPathResource;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/** The dashboard's paths. */
public final class DashboardRoutes {

	private DashboardRoutes() {
	}

	public static RouterFunction<ServerResponse> of(DashboardHandlers handlers, RuntimeChangeHandlers changes,
			ReplayHandlers replay, UsageHandlers usage) {
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
			.GET("/admin/api/replay/captures", replay::captures)
			.GET("/admin/api/replay/runs", replay::list)
			.POST("/admin/api/replay/runs", replay::start)
			.GET("/admin/api/replay/runs/{id}", replay::get)
			.POST("/admin/api/replay/runs/{id}/cancel", replay::cancel)
			.GET("/admin/api/usage", usage::usage)
			.add(RouterFunctions.resources("/admin/assets/**", new ClassPathResource("infergate-admin/assets/")))
			.build();
	}
}
