package io.infergate.sim.http;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

import com.sun.net.httpserver.HttpExchange;

/**
 * Resets an exchange's TCP connection: closed with a zero linger time, the socket sends RST instead of FIN. The JDK
 * server does not expose its sockets, so this reads them from its implementation, which needs
 * {@code --add-opens jdk.httpserver/sun.net.httpserver=ALL-UNNAMED} (the simulator's jar manifest says so).
 */
final class ConnectionReset {

	private ConnectionReset() {
	}

	static void reset(HttpExchange exchange) throws IOException {
		SocketChannel channel = channelOf(exchange);
		channel.setOption(StandardSocketOptions.SO_LINGER, 0);
		channel.close();
	}

	private static SocketChannel channelOf(HttpExchange exchange) throws IOException {
		try {
			Field impl = exchange.getClass().getDeclaredField("impl");
			impl.setAccessible(true);
			Object exchangeImpl = impl.get(exchange);
			Method connection = exchangeImpl.getClass().getDeclaredMethod("getConnection");
			connection.setAccessible(true);
			Object httpConnection = connection.invoke(exchangeImpl);
			Method channel = httpConnection.getClass().getDeclaredMethod("getChannel");
			channel.setAccessible(true);
			return (SocketChannel) channel.invoke(httpConnection);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			throw new IOException("cannot reach the exchange's socket to reset it; run with --add-opens "
					+ "jdk.httpserver/sun.net.httpserver=ALL-UNNAMED", ex);
		}
	}
}
