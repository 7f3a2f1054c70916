package io.infergate.gateway.error;

import java.io.IOException;

import io.netty.channel.ConnectTimeoutException;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.client.PrematureCloseException;

/** How a call to a model server failed, as the request path and the error handler both need to know. */
public final class UpstreamFailures {

	private UpstreamFailures() {
	}

	/**
	 * Failures of the connection to the model server before it sent any response: refused, timed out while
	 * connecting, closed, reset, or any other I/O error. The request can move to another endpoint.
	 */
	public static boolean beforeResponse(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof IOException || cause instanceof ConnectTimeoutException
					|| cause instanceof PrematureCloseException || cause instanceof AbortedException) {
				return true;
			}
		}
		return false;
	}
}
