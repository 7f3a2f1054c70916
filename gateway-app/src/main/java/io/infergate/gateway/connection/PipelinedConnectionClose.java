package io.infergate.gateway.connection;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Answers a request pipelined behind another one that carries {@code Connection: close}: both responses go out, in
 * order, and the connection closes after the second.
 * <p>
 * Reactor Netty (1.3.8) takes a request's {@code Connection: close} as the connection's as soon as it reads the
 * request, even while an earlier request on the connection is still being answered: the earlier response then says
 * {@code connection: close}, the connection closes after it, and the later request is never answered. Reproduction:
 * a Reactor Netty {@code HttpServer} whose handler answers after 100 ms; write two requests in one segment, the
 * second with {@code Connection: close}; one response comes back, announcing {@code connection: close}
 * ({@code PipelinedConnectionCloseTests} keeps this). The handler sits right after the HTTP codec: when a request that
 * asks to close arrives while an earlier one is unanswered, it takes {@code Connection: close} out of that request,
 * so the server keeps the connection, and puts it back on that request's own response, closing the connection once
 * that response is written.
 */
public final class PipelinedConnectionClose extends ChannelDuplexHandler {

	public static final String NAME = "infergate.pipelinedConnectionClose";

	/** Requests whose head arrived. */
	private long requests;

	/** Final responses fully written; responses go out in order, so the one being written is the next. */
	private long responsesEnded;

	/** The request (by count from 1) whose response must close the connection, or 0. */
	private long closeAfter;

	/** Whether a final response's head went out and its end has not. */
	private boolean responseOpen;

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
		if (msg instanceof HttpRequest request) {
			this.requests++;
			boolean earlierUnanswered = this.requests - 1 > this.responsesEnded;
			if (earlierUnanswered && this.closeAfter == 0 && !HttpUtil.isKeepAlive(request)) {
				HttpUtil.setKeepAlive(request, true);
				this.closeAfter = this.requests;
			}
		}
		super.channelRead(ctx, msg);
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
		if (msg instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
			// a 100 Continue is no answer
			super.write(ctx, msg, promise);
			return;
		}
		boolean closing = this.responsesEnded + 1 == this.closeAfter;
		if (msg instanceof HttpResponse response) {
			this.responseOpen = true;
			if (closing) {
				HttpUtil.setKeepAlive(response, false);
			}
		}
		if (msg instanceof LastHttpContent && this.responseOpen) {
			this.responseOpen = false;
			this.responsesEnded++;
			if (closing) {
				ctx.write(msg, promise.unvoid()).addListener(ChannelFutureListener.CLOSE);
				return;
			}
		}
		super.write(ctx, msg, promise);
	}
}
