package io.infergate.gateway.connection;

import java.util.concurrent.atomic.AtomicInteger;

import reactor.netty.NettyPipeline;

import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Deadlines and a cap on the API port's client connections ({@link ClientConnectionDeadlines}), and pipelined
 * requests answered in full ({@link PipelinedConnectionClose}).
 */
@Configuration(proxyBeanMethods = false)
public class ClientConnectionsConfiguration {

	@Bean
	NettyServerCustomizer clientConnectionDeadlinesCustomizer(ClientConnectionProperties properties) {
		AtomicInteger openConnections = new AtomicInteger();
		return (server) -> server.doOnChannelInit((observer, channel, address) -> {
			if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
				channel.pipeline()
					.addAfter(NettyPipeline.HttpCodec, ClientConnectionDeadlines.NAME,
							new ClientConnectionDeadlines(properties, openConnections));
				channel.pipeline().addAfter(NettyPipeline.HttpCodec, PipelinedConnectionClose.NAME,
						new PipelinedConnectionClose());
			}
		});
	}
}
