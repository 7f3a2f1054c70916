package io.infergate.bench.streams;

import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * {@code stream-hold}: holds many streamed chat completions open at once against one URL and times every SSE event
 * as it arrives, for what a proxy adds between events and what each open stream costs it. Prints, once every stream
 * has its first event, {@code OPEN <n>} (a script measures the proxy's memory then), and at the end the streams
 * completed, the events, why streams failed, and the gaps between consecutive events of a stream (p50, p90, p99, p99.9, max) and the
 * time to first event (p50, p99), in milliseconds.
 * <p>
 * The client is one Netty event-loop thread, one connection per stream, reading each event as it arrives: at tens of
 * thousands of events per second a heavier client would be what delays them.
 * <p>
 * {@code --url URL[,URL...] --streams N --max-tokens M [--model NAME] [--open-timeout SECONDS]}; with several URLs
 * the streams go to them in turn.
 */
public final class StreamHoldCommand {

	public static final String NAME = "stream-hold";

	private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);

	private final PrintStream out;

	public StreamHoldCommand(PrintStream out) {
		this.out = out;
	}

	/** One stream: its connection's handler, and its event arrival times in nanoseconds. */
	private static final class Stream extends SimpleChannelInboundHandler<HttpObject> {

		final long[] arrivals;

		final CompletableFuture<String> done = new CompletableFuture<>();

		long sentAt;

		int events;

		private final CountDownLatch opened;

		private final FullHttpRequest request;

		/** How much of {@code "data:"} the bytes read last end with, at the start of a line. */
		private int matched;

		private boolean lineStart = true;

		Stream(int maxEvents, CountDownLatch opened, FullHttpRequest request) {
			this.arrivals = new long[maxEvents];
			this.opened = opened;
			this.request = request;
		}

		@Override
		public void channelActive(ChannelHandlerContext ctx) {
			sentAt = System.nanoTime();
			ctx.writeAndFlush(request);
		}

		@Override
		protected void channelRead0(ChannelHandlerContext ctx, HttpObject message) {
			long now = System.nanoTime();
			if (message instanceof HttpResponse response && response.status().code() != 200) {
				fail(ctx, "HTTP " + response.status().code());
				return;
			}
			if (message instanceof HttpContent content) {
				read(content.content(), now);
				if (message instanceof LastHttpContent) {
					done.complete(null);
					ctx.close();
				}
			}
		}

		/** Counts the lines that start with {@code data:}, even when one is split between two reads. */
		private void read(ByteBuf bytes, long now) {
			for (int i = bytes.readerIndex(); i < bytes.writerIndex(); i++) {
				byte b = bytes.getByte(i);
				if (lineStart || matched > 0) {
					if (b == DATA[matched]) {
						matched++;
						lineStart = false;
						if (matched == DATA.length) {
							matched = 0;
							event(now);
						}
						continue;
					}
					matched = 0;
				}
				lineStart = b == '\n';
			}
		}

		private void event(long now) {
			if (events < arrivals.length) {
				arrivals[events++] = now;
				if (events == 1) {
					opened.countDown();
				}
			}
		}

		private void fail(ChannelHandlerContext ctx, String reason) {
			if (done.complete(reason) && events == 0) {
				opened.countDown();
			}
			ctx.close();
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			if (done.complete("connection closed") && events == 0) {
				opened.countDown();
			}
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			fail(ctx, cause.getClass().getSimpleName());
		}
	}

	public int run(String[] args) throws Exception {
		Map<String, String> options = options(args);
		// several URLs: the streams go to them in turn
		URI[] urls = Arrays.stream(required(options, "url").split(",")).map(URI::create).toArray(URI[]::new);
		int streams = Integer.parseInt(required(options, "streams"));
		int maxTokens = Integer.parseInt(required(options, "max-tokens"));
		String model = options.getOrDefault("model", "bench-model");
		long openTimeout = Long.parseLong(options.getOrDefault("open-timeout", "120"));
		byte[] body = ("{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens
				+ ",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Count as far as you can.\"}]}")
			.getBytes(StandardCharsets.UTF_8);
		EventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
				Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
		try {
			CountDownLatch opened = new CountDownLatch(streams);
			Stream[] held = new Stream[streams];
			for (int i = 0; i < streams; i++) {
				URI url = urls[i % urls.length];
				FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
						url.getRawPath(), Unpooled.wrappedBuffer(body));
				request.headers()
					.set(HttpHeaderNames.HOST, url.getHost() + ":" + url.getPort())
					.set(HttpHeaderNames.CONTENT_TYPE, "application/json")
					.set(HttpHeaderNames.ACCEPT, "text/event-stream")
					.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
				Stream stream = new Stream(maxTokens + 4, opened, request);
				held[i] = stream;
				new Bootstrap().group(group)
					.channel(Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class)
					.option(ChannelOption.TCP_NODELAY, true)
					.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 30_000)
					.handler(new ChannelInitializer<SocketChannel>() {
						@Override
						protected void initChannel(SocketChannel channel) {
							channel.pipeline().addLast(new HttpClientCodec()).addLast(stream);
						}
					})
					.connect(url.getHost(), url.getPort())
					.addListener((ChannelFutureListener) (future) -> {
						if (!future.isSuccess() && stream.done.complete(future.cause().getClass().getSimpleName())) {
							opened.countDown();
						}
					});
			}
			if (opened.await(openTimeout, TimeUnit.SECONDS)) {
				out.println("OPEN " + streams);
			}
			else {
				out.println("NOT OPEN " + opened.getCount() + " of " + streams + " streams without a first event");
			}
			out.flush();
			CompletableFuture.allOf(Arrays.stream(held).map((stream) -> stream.done).toArray(CompletableFuture[]::new))
				.get(30, TimeUnit.MINUTES);
			return report(held, streams, maxTokens);
		}
		finally {
			group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
		}
	}

	private int report(Stream[] held, int streams, int maxTokens) {
		Map<String, Integer> failures = new TreeMap<>();
		int failed = 0;
		long[] gaps = new long[streams * (maxTokens + 4)];
		long[] firsts = new long[streams];
		int gapCount = 0;
		int firstCount = 0;
		long events = 0;
		int complete = 0;
		for (Stream stream : held) {
			String failure = stream.done.getNow(null);
			if (failure != null) {
				failed++;
				failures.merge(failure, 1, Integer::sum);
			}
			events += stream.events;
			if (stream.events > 0) {
				firsts[firstCount++] = stream.arrivals[0] - stream.sentAt;
			}
			if (stream.events >= maxTokens) {
				complete++;
			}
			for (int e = 1; e < stream.events; e++) {
				gaps[gapCount++] = stream.arrivals[e] - stream.arrivals[e - 1];
			}
		}
		Arrays.sort(gaps, 0, gapCount);
		Arrays.sort(firsts, 0, firstCount);
		out.printf("streams %d complete %d failed %d events %d%n", streams, complete, failed, events);
		out.printf("gap_ms p50 %.2f p90 %.2f p99 %.2f p99.9 %.2f max %.2f%n", millis(gaps, gapCount, 0.50),
				millis(gaps, gapCount, 0.90), millis(gaps, gapCount, 0.99), millis(gaps, gapCount, 0.999),
				millis(gaps, gapCount, 1.0));
		out.printf("first_event_ms p50 %.2f p99 %.2f%n", millis(firsts, firstCount, 0.50),
				millis(firsts, firstCount, 0.99));
		if (!failures.isEmpty()) {
			out.println("failures " + failures);
		}
		out.flush();
		return (failed == 0) ? 0 : 1;
	}

	private static double millis(long[] sorted, int count, double quantile) {
		if (count == 0) {
			return Double.NaN;
		}
		int index = (int) Math.min(count - 1, Math.max(0, Math.ceil(quantile * count) - 1));
		return sorted[index] / 1e6;
	}

	/** {@code --name value} pairs, in order; shared with the other stream commands. */
	static Map<String, String> options(String[] args) {
		Map<String, String> options = new LinkedHashMap<>();
		for (int i = 0; i < args.length; i += 2) {
			if (!args[i].startsWith("--") || i + 1 >= args.length) {
				throw new IllegalArgumentException("expected --option value, was " + args[i]);
			}
			options.put(args[i].substring(2), args[i + 1]);
		}
		return options;
	}

	static String required(Map<String, String> options, String name) {
		String value = options.get(name);
		if (value == null) {
			throw new IllegalArgumentException("--" + name + " is required");
		}
		return value;
	}
}
