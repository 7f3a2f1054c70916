package io.infergate.bench.streams;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * {@code event-server}: a model server reduced to its streaming, as cheap as a server can be, for measuring what a proxy
 * adds per event. Every POST that asks for {@code "stream":true} is answered as vLLM answers it: an event with the
 * assistant's role, then {@code max_tokens} SSE content events (default 64), each in its own HTTP chunk and its own flush, {@code --gap-ms} apart (0: one after the other,
 * the next written once the event loop has served the other connections), then a usage chunk when the request asked
 * for {@code stream_options.include_usage}, then {@code data: [DONE]}; the events are shaped as vLLM's. Any other POST
 * gets one chat completion. {@code GET /metrics} answers a vLLM exposition (the streams open as the running
 * requests), {@code GET /v1/models} the model, {@code GET /health} 200. All ports are served by one event-loop thread.
 * <p>
 * {@code --ports P[,P...] [--gap-ms MS] [--model NAME]}
 */
public final class EventServerCommand {

	public static final String NAME = "event-server";

	private static final Pattern MAX_TOKENS = Pattern.compile("\"max_(?:completion_)?tokens\"\\s*:\\s*(\\d+)");

	private static final Pattern STREAM = Pattern.compile("\"stream\"\\s*:\\s*true");

	private static final Pattern INCLUDE_USAGE = Pattern.compile("\"include_usage\"\\s*:\\s*true");

	private static final int DEFAULT_EVENTS = 64;

	private final PrintStream out;

	private final AtomicInteger open = new AtomicInteger();

	private EventLoopGroup group;

	private final List<Channel> channels = new ArrayList<>();

	public EventServerCommand(PrintStream out) {
		this.out = out;
	}

	/** Runs until the process is stopped. */
	public int run(String[] args) throws Exception {
		Map<String, String> options = StreamHoldCommand.options(args);
		List<Integer> ports = new ArrayList<>();
		for (String port : StreamHoldCommand.required(options, "ports").split(",")) {
			ports.add(Integer.valueOf(port.trim()));
		}
		double gapMillis = Double.parseDouble(options.getOrDefault("gap-ms", "0"));
		if (gapMillis < 0) {
			throw new IllegalArgumentException("--gap-ms must not be negative, was " + gapMillis);
		}
		List<InetSocketAddress> bound = start(ports, gapMillis, options.getOrDefault("model", "bench-model"));
		out.println("serving " + bound + ", events " + gapMillis + " ms apart");
		out.flush();
		channels.get(0).closeFuture().sync();
		return 0;
	}

	/** Starts serving on {@code ports} (0: any free port) and returns the addresses bound. */
	List<InetSocketAddress> start(List<Integer> ports, double gapMillis, String model) throws InterruptedException {
		boolean epoll = Epoll.isAvailable();
		group = new MultiThreadIoEventLoopGroup(1, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
		long gapNanos = Math.round(gapMillis * 1_000_000);
		Responses responses = new Responses(model);
		ServerBootstrap bootstrap = new ServerBootstrap().group(group)
			.channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
			.option(ChannelOption.SO_BACKLOG, 8192)
			.childOption(ChannelOption.TCP_NODELAY, true)
			.childHandler(new ChannelInitializer<SocketChannel>() {
				@Override
				protected void initChannel(SocketChannel channel) {
					channel.pipeline()
						.addLast(new HttpServerCodec())
						.addLast(new HttpObjectAggregator(1 << 20))
						.addLast(new Handler(responses, gapNanos));
				}
			});
		List<InetSocketAddress> bound = new ArrayList<>();
		for (int port : ports) {
			Channel channel = bootstrap.bind("127.0.0.1", port).sync().channel();
			channels.add(channel);
			bound.add((InetSocketAddress) channel.localAddress());
		}
		return bound;
	}

	void stop() {
		channels.forEach(Channel::close);
		group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
	}

	/** The bytes the server answers with. */
	private static final class Responses {

		final String model;

		final byte[] firstEvent;

		final byte[] contentEvent;

		final byte[] lastEvent;

		final byte[] done = bytes("data: [DONE]\n\n");

		Responses(String model) {
			this.model = model;
			String head = "data: {\"id\":\"chatcmpl-events\",\"object\":\"chat.completion.chunk\",\"created\":1796644812,"
					+ "\"model\":\"" + model + "\",\"choices\":[{\"index\":0,\"delta\":{";
			this.firstEvent = bytes(head + "\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
					+ "\"finish_reason\":null}]}\n\n");
			this.contentEvent = bytes(head + "\"content\":\" fox\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
			this.lastEvent = bytes(head + "\"content\":\" fox\"},\"logprobs\":null,\"finish_reason\":\"length\"}]}\n\n");
		}

		byte[] usage(int completionTokens) {
			return bytes("data: {\"id\":\"chatcmpl-events\",\"object\":\"chat.completion.chunk\",\"created\":1796644812,"
					+ "\"model\":\"" + model + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"total_tokens\":"
					+ (12 + completionTokens) + ",\"completion_tokens\":" + completionTokens + "}}\n\n");
		}

		byte[] completion(int completionTokens) {
			return bytes("{\"id\":\"chatcmpl-events\",\"object\":\"chat.completion\",\"created\":1796644812,\"model\":\""
					+ model + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\" fox\"},"
					+ "\"logprobs\":null,\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":12,"
					+ "\"total_tokens\":" + (12 + completionTokens) + ",\"completion_tokens\":" + completionTokens
					+ "}}");
		}

		byte[] models() {
			return bytes("{\"object\":\"list\",\"data\":[{\"id\":\"" + model + "\",\"object\":\"model\","
					+ "\"created\":1796644812,\"owned_by\":\"vllm\",\"root\":\"" + model
					+ "\",\"parent\":null,\"max_model_len\":32768}]}");
		}

		byte[] metrics(int running) {
			String labels = "{engine=\"0\",model_name=\"" + model + "\"}";
			return bytes("# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running" + labels + " " + running
					+ ".0\n# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting" + labels + " 0.0\n"
					+ "# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc" + labels + " 0.0\n");
		}
	}

	private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {

		private final Responses responses;

		private final long gapNanos;

		Handler(Responses responses, long gapNanos) {
			this.responses = responses;
			this.gapNanos = gapNanos;
		}

		@Override
		protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
			boolean keepAlive = HttpUtil.isKeepAlive(request);
			String path = request.uri();
			if (request.method().equals(HttpMethod.GET)) {
				if (path.startsWith("/metrics")) {
					respond(ctx, keepAlive, "text/plain; version=0.0.4", responses.metrics(open.get()));
				}
				else if (path.startsWith("/v1/models")) {
					respond(ctx, keepAlive, "application/json", responses.models());
				}
				else if (path.startsWith("/health")) {
					respond(ctx, keepAlive, "text/plain", new byte[0]);
				}
				else {
					notFound(ctx, keepAlive);
				}
				return;
			}
			if (!request.method().equals(HttpMethod.POST)) {
				notFound(ctx, keepAlive);
				return;
			}
			String body = request.content().toString(StandardCharsets.UTF_8);
			Matcher maxTokens = MAX_TOKENS.matcher(body);
			int events = maxTokens.find() ? Math.max(1, Integer.parseInt(maxTokens.group(1))) : DEFAULT_EVENTS;
			if (!STREAM.matcher(body).find()) {
				respond(ctx, keepAlive, "application/json", responses.completion(events));
				return;
			}
			HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
			head.headers()
				.set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8")
				.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
			if (!keepAlive) {
				head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
			}
			ctx.writeAndFlush(head);
			open.incrementAndGet();
			new Stream(ctx, events + 1, INCLUDE_USAGE.matcher(body).find(), keepAlive).next();
		}

		private void respond(ChannelHandlerContext ctx, boolean keepAlive, String contentType, byte[] body) {
			FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
					Unpooled.wrappedBuffer(body));
			response.headers()
				.set(HttpHeaderNames.CONTENT_TYPE, contentType)
				.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
			write(ctx, keepAlive, response);
		}

		private void notFound(ChannelHandlerContext ctx, boolean keepAlive) {
			FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
					HttpResponseStatus.NOT_FOUND);
			response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
			write(ctx, keepAlive, response);
		}

		private void write(ChannelHandlerContext ctx, boolean keepAlive, Object response) {
			if (keepAlive) {
				ctx.writeAndFlush(response);
			}
			else {
				ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
			}
		}

		/** One stream: an event per step, each written and flushed on its own. */
		private final class Stream implements Runnable {

			private final ChannelHandlerContext ctx;

			/** The events to send: the role's and the content's. */
			private final int events;

			private final boolean includeUsage;

			private final boolean keepAlive;

			private int sent;

			private final long startNanos = System.nanoTime();

			Stream(ChannelHandlerContext ctx, int events, boolean includeUsage, boolean keepAlive) {
				this.ctx = ctx;
				this.events = events;
				this.includeUsage = includeUsage;
				this.keepAlive = keepAlive;
			}

			/** Schedules the next event one gap after the stream's start plus that many gaps, so delays do not add up. */
			void next() {
				if (gapNanos == 0) {
					ctx.executor().execute(this);
					return;
				}
				long due = startNanos + (sent + 1) * gapNanos - System.nanoTime();
				ctx.executor().schedule(this, Math.max(0, due), TimeUnit.NANOSECONDS);
			}

			@Override
			public void run() {
				if (!ctx.channel().isActive()) {
					open.decrementAndGet();
					return;
				}
				sent++;
				byte[] event = (sent == 1) ? responses.firstEvent : (sent < events) ? responses.contentEvent
						: responses.lastEvent;
				ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(event)));
				if (sent < events) {
					next();
					return;
				}
				if (includeUsage) {
					ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(responses.usage(events - 1))));
				}
				ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(responses.done)));
				open.decrementAndGet();
				write(ctx, keepAlive, LastHttpContent.EMPTY_LAST_CONTENT);
			}
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}
}
