package io.infergate.admin.security;

import java.util.Arrays;
import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.security.autoconfigure.actuate.web.reactive.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.authentication.UserDetailsRepositoryReactiveAuthenticationManager;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.ServerAuthenticationEntryPoint;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.security.web.server.authentication.ServerAuthenticationEntryPointFailureHandler;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.csrf.CsrfWebFilter;
import org.springframework.security.web.server.savedrequest.NoOpServerRequestCache;
import org.springframework.security.web.server.util.matcher.OrServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.PathPatternParserServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher.MatchResult;

import io.infergate.admin.web.RuntimeChangeHandlers;

/**
 * Spring Security on the management port, and only there.
 * <p>
 * With the management port apart from the API's (the default), this configuration lives in the management
 * server's own application context: its filter chain is invisible to the API's context, so API requests never
 * enter it. The application leaves out Spring Boot's own reactive security auto-configuration, which would secure
 * the API port. With management on the API's port, the chains match only the management paths ({@code /actuator}
 * and {@code /admin}).
 * <ul>
 * <li>{@code /actuator/health/liveness} and {@code /actuator/health/readiness}: open, for probes.</li>
 * <li>{@code /actuator/prometheus}: as {@code infergate.management.prometheus.access} says: the admin, anyone, or a
 * bearer token (or the admin).</li>
 * <li>Everything else: the admin's HTTP Basic credentials, so a browser shows its own login prompt; no login form,
 * no redirect, no session: every request carries its credentials.</li>
 * <li>Every response: {@code X-Content-Type-Options: nosniff} and a Content-Security-Policy that lets the
 * dashboard load scripts, styles and connections from its own origin only.</li>
 * </ul>
 */
@ManagementContextConfiguration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@EnableWebFluxSecurity
public class ManagementSecurityConfiguration {

	/** The realm browsers show in their login prompt. */
	public static final String REALM = "Infergate management";

	public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
			+ "connect-src 'self'; img-src 'self'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'";

	private static final String ADMIN_ROLE = "ADMIN";

	private static final String PROMETHEUS_ROLE = "PROMETHEUS";

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	SecurityWebFilterChain infergatePrometheusSecurity(ServerHttpSecurity http, AdminCredentials credentials) {
		http.securityMatcher(EndpointRequest.to("prometheus"));
		switch (credentials.prometheusAccess()) {
			case OPEN -> {
				common(http, credentials, challenge("Basic"));
				http.authorizeExchange((exchanges) -> exchanges.anyExchange().permitAll());
			}
			case BEARER -> {
				ServerAuthenticationEntryPoint challenge = challenge("Bearer", "Basic");
				common(http, credentials, challenge);
				http.addFilterAt(bearerTokenFilter(credentials, challenge), SecurityWebFiltersOrder.AUTHENTICATION);
				http.authorizeExchange((exchanges) -> exchanges.anyExchange().hasAnyRole(ADMIN_ROLE, PROMETHEUS_ROLE));
			}
			case ADMIN -> {
				common(http, credentials, challenge("Basic"));
				http.authorizeExchange((exchanges) -> exchanges.anyExchange().hasRole(ADMIN_ROLE));
			}
		}
		return http.build();
	}

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 1)
	SecurityWebFilterChain infergateManagementSecurity(ServerHttpSecurity http, AdminCredentials credentials,
			WebEndpointProperties endpoints, Environment environment) {
		if (ManagementPortType.get(environment) != ManagementPortType.DIFFERENT) {
			http.securityMatcher(new OrServerWebExchangeMatcher(EndpointRequest.toAnyEndpoint(),
					new PathPatternParserServerWebExchangeMatcher("/admin"),
					new PathPatternParserServerWebExchangeMatcher("/admin/**")));
		}
		String health = endpoints.getBasePath() + "/health";
		common(http, credentials, challenge("Basic"));
		http.authorizeExchange((exchanges) -> exchanges.pathMatchers(health + "/liveness", health + "/readiness")
			.permitAll()
			.anyExchange()
			.hasRole(ADMIN_ROLE));
		return http.build();
	}

	/** What every management chain shares: headers, HTTP Basic for the admin, and no state kept between requests. */
	private static void common(ServerHttpSecurity http, AdminCredentials credentials,
			ServerAuthenticationEntryPoint challenge) {
		http.headers((headers) -> headers.contentSecurityPolicy((csp) -> csp.policyDirectives(CONTENT_SECURITY_POLICY)))
			.httpBasic((basic) -> basic.authenticationManager(adminAuthentication(credentials))
				.authenticationEntryPoint(challenge))
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(challenge))
			// cross-site request forgery: a dashboard POST proves it came from the page by a header no other site can
			// send (RuntimeChangeHandlers); any other unsafe request needs Spring Security's token as before
			.csrf((csrf) -> csrf.requireCsrfProtectionMatcher((exchange) -> (exchange.getRequest()
				.getHeaders()
				.getFirst(RuntimeChangeHandlers.ORIGIN_HEADER) != null) ? MatchResult.notMatch()
						: CsrfWebFilter.DEFAULT_CSRF_MATCHER.matches(exchange)))
			.formLogin(ServerHttpSecurity.FormLoginSpec::disable)
			.logout(ServerHttpSecurity.LogoutSpec::disable)
			.requestCache((cache) -> cache.requestCache(NoOpServerRequestCache.getInstance()))
			.securityContextRepository(NoOpServerSecurityContextRepository.getInstance());
	}

	private static ReactiveAuthenticationManager adminAuthentication(AdminCredentials credentials) {
		MapReactiveUserDetailsService users = new MapReactiveUserDetailsService(User.withUsername(credentials.username())
			.password(credentials.passwordHash())
			.roles(ADMIN_ROLE)
			.build());
		UserDetailsRepositoryReactiveAuthenticationManager authentication = new UserDetailsRepositoryReactiveAuthenticationManager(
				users);
		authentication.setPasswordEncoder(credentials.passwordEncoder());
		return authentication;
	}

	/** Authenticates {@code Authorization: Bearer <token>} against Prometheus's token hash. */
	private static AuthenticationWebFilter bearerTokenFilter(AdminCredentials credentials,
			ServerAuthenticationEntryPoint challenge) {
		AuthenticationWebFilter filter = new AuthenticationWebFilter((ReactiveAuthenticationManager) (authentication) -> {
			if (credentials.isPrometheusToken((String) authentication.getCredentials())) {
				return Mono.just(new PreAuthenticatedAuthenticationToken("prometheus", null,
						AuthorityUtils.createAuthorityList("ROLE_" + PROMETHEUS_ROLE)));
			}
			return Mono.error(new BadCredentialsException("not Prometheus's bearer token"));
		});
		filter.setServerAuthenticationConverter((exchange) -> {
			String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
			if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
				return Mono.empty();
			}
			return Mono.just(new PreAuthenticatedAuthenticationToken("prometheus", authorization.substring(7).trim()));
		});
		filter.setAuthenticationFailureHandler(new ServerAuthenticationEntryPointFailureHandler(challenge));
		filter.setSecurityContextRepository(NoOpServerSecurityContextRepository.getInstance());
		return filter;
	}

	/** A 401 with one {@code WWW-Authenticate} challenge per scheme, all in {@link #REALM}. */
	private static ServerAuthenticationEntryPoint challenge(String... schemes) {
		List<String> challenges = Arrays.stream(schemes).map((scheme) -> scheme + " realm=\"" + REALM + "\"").toList();
		return (exchange, ex) -> Mono.fromRunnable(() -> {
			exchange.getResponse().setStatusCode(HttpStatus.UNAUTHORIZED);
			exchange.getResponse().getHeaders().addAll(HttpHeaders.WWW_AUTHENTICATE, challenges);
		});
	}
}
