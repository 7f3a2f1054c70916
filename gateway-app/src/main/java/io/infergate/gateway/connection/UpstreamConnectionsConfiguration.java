package io.infergate.gateway.connection;

import java.time.Duration;

import reactor.netty.NettyPipeline;

import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.cloud.gateway.config.HttpClientCustomizer;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The response timeout on the connections to model servers: {@link UpstreamResponseTimeout}, in place of Spring Cloud
 * Gateway's per-call timer, which the inference route then turns off ({@code GatewayRoutesConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
public class UpstreamConnectionsConfiguration {

	@Bean
	HttpClientCustomizer upstreamResponseTimeoutCustomizer(HttpClientProperties client, ServerProperties server) {
		Duration timeout = UpstreamResponseTimeout.replacing(client, server);
		if (timeout == null) {
			return (httpClient) -> httpClient;
		}
		return (httpClient) -> httpClient.doOnChannelInit((observer, channel, address) -> {
			// after the codec, so it sees request and response heads, and before the reactive bridge, which takes
			// the responses and the failure
			if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
				channel.pipeline()
					.addAfter(NettyPipeline.HttpCodec, UpstreamResponseTimeout.NAME,
							new UpstreamResponseTimeout(timeout));
			}
		});
	}
}
