#!/usr/bin/env bash
# Many streams held open at once, the way model servers send them: each SSE event in its own HTTP chunk, one
# decoding step apart. For each configuration in CONFIGS ("STREAMS:GAP_MS ...", default "1000:20 5000:200") it starts
# the backends and, per leg in LEGS ("direct scg infergate"), holds STREAMS streamed chat completions of MAX_TOKENS
# events open through that leg (java -jar routing-bench.jar stream-hold):
#   - the gaps between consecutive events of a stream as the client saw them (p50, p90, p99, p99.9, max) and the time
#     to first event; a proxy's added delay is its gap percentile minus the direct leg's;
#   - the proxy's memory per open stream, once every stream has its first event, minus the same figure before, over
#     STREAMS: its resident set and its used heap, each after a full GC, and its direct buffers (Native Memory
#     Tracking's "Other", where the JDK counts them; both JVM gateways run with -XX:NativeMemoryTracking=summary).
# BACKENDS: "sim" (default) runs four simulators (--perf-profile zero, --beta0 GAP_MS); "events" runs
# routing-bench.jar's event-server on the same four ports, one event-loop thread writing each event in its own chunk
# GAP_MS apart, so that with thousands of streams more of the machine is left to the proxy.
# direct sends the streams to the four backends in turn, as the proxies spread them (no memory figures). When not
# every stream has its first event within OPEN_TIMEOUT seconds (60), memory is taken then and divided by the streams
# open. INFERGATE_ARGS are added to Infergate's command line (e.g. --infergate.flow-control.enabled=false: with
# thousands of streams the simulators' KV caches fill, and flow control holds and sheds requests as it should). The JVM gateways are warmed up
# first with WARMUP_STREAMS streams. Build first: ./mvnw -B -q -DskipTests package (and bench/plain-gateway).
set -euo pipefail
cd "$(dirname "$0")/../.."

CONFIGS=${CONFIGS:-1000:20 5000:200}
LEGS=${LEGS:-direct scg infergate}
MAX_TOKENS=${MAX_TOKENS:-400}
WARMUP_STREAMS=${WARMUP_STREAMS:-500}
OPEN_TIMEOUT=${OPEN_TIMEOUT:-60}
JAVA=${JAVA:-java}
BACKENDS=${BACKENDS:-sim}
case $BACKENDS in sim | events) ;; *) echo "BACKENDS must be sim or events, not $BACKENDS" >&2; exit 2 ;; esac
SIM_JAR=model-server-sim/target/model-server-sim.jar
GATEWAY_JAR=${GATEWAY_JAR:-gateway-app/target/gateway-app.jar}
SCG_JAR=bench/plain-gateway/target/plain-gateway.jar
BENCH_JAR=bench/target/routing-bench.jar
BACKEND_PORTS=(19611 19612 19613 19614)
SCG_PORT=19620
INFERGATE_PORT=19630
INFERGATE_MANAGEMENT_PORT=19631
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap cleanup EXIT

wait_for() { # url seconds
	for _ in $(seq 1 $(($2 * 4))); do
		curl -sf -o /dev/null "$1" && return 0
		sleep 0.25
	done
	echo "$1 did not answer within $2 s" >&2
	exit 1
}
memory_kb() { # pid -> "resident-set heap-used direct", all in KB, after a full GC
	jcmd "$1" GC.run >/dev/null
	echo "$(awk '/^VmRSS/ {print $2}' "/proc/$1/status")" \
		"$(jcmd "$1" GC.heap_info | awk '/used/ { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?/, "", v); print v; exit } }')" \
		"$(jcmd "$1" VM.native_memory summary | awk '/^-[ ]*Other \(/ { if (match($0, /committed=[0-9]+KB/)) { v = substr($0, RSTART + 10, RLENGTH - 12); print v; exit } }')"
}
hold() { # urls streams: starts the client in the background, its pid in $client, its output in $work/client.out
	"$JAVA" -Xmx2g -jar "$BENCH_JAR" stream-hold --url "$1" --streams "$2" \
		--max-tokens "$MAX_TOKENS" --open-timeout "$OPEN_TIMEOUT" >"$work/client.out" 2>"$work/client.err" &
	client=$!
}

echo "machine: $(nproc) cores, $("$JAVA" -version 2>&1 | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "backends: $BACKENDS"
echo "config leg streams complete failed events gap_p50 gap_p90 gap_p99 gap_p999 gap_max first_p50 first_p99 rss_kb_per_stream heap_kb_per_stream direct_kb_per_stream"
for config in $CONFIGS; do
	streams=${config%%:*} gap=${config#*:}
	pids=()
	sims=()
	if [ "$BACKENDS" = events ]; then
		"$JAVA" -jar "$BENCH_JAR" event-server --ports "$(IFS=,; echo "${BACKEND_PORTS[*]}")" --gap-ms "$gap" \
			>"$work/event-server.log" 2>&1 &
		sims+=($!)
		pids+=($!)
	else
		for port in "${BACKEND_PORTS[@]}"; do
			"$JAVA" -jar "$SIM_JAR" --port "$port" --model bench-model --perf-profile zero --beta0 $((gap * 1000)) \
				--max-num-seqs 8192 >"$work/sim-$port.log" 2>&1 &
			sims+=($!)
			pids+=($!)
		done
	fi
	for port in "${BACKEND_PORTS[@]}"; do wait_for "http://127.0.0.1:$port/health" 60; done
	args=()
	for i in "${!BACKEND_PORTS[@]}"; do
		args+=("--spring.cloud.discovery.client.simple.instances.backends[$i].uri=http://127.0.0.1:${BACKEND_PORTS[$i]}")
	done
	"$JAVA" -XX:NativeMemoryTracking=summary -jar "$SCG_JAR" --server.port=$SCG_PORT "${args[@]}" >"$work/scg.log" 2>&1 &
	scg=$!
	pids+=($scg)
	endpoints=$(printf 'http://127.0.0.1:%s,' "${BACKEND_PORTS[@]}")
	"$JAVA" -XX:NativeMemoryTracking=summary -jar "$GATEWAY_JAR" --server.port=$INFERGATE_PORT --management.server.port=$INFERGATE_MANAGEMENT_PORT \
		--infergate.pools.bench.endpoints="${endpoints%,}" --logging.level.root=WARN ${INFERGATE_ARGS:-} \
		>"$work/infergate.log" 2>&1 &
	infergate=$!
	pids+=($infergate)
	wait_for "http://127.0.0.1:$SCG_PORT/v1/models" 120
	wait_for "http://127.0.0.1:$INFERGATE_MANAGEMENT_PORT/actuator/health/readiness" 120
	for leg in scg infergate; do
		case " $LEGS " in *" $leg "*) ;; *) continue ;; esac
		port=$SCG_PORT
		[ "$leg" = infergate ] && port=$INFERGATE_PORT
		hold "http://127.0.0.1:$port/v1/chat/completions" "$WARMUP_STREAMS"
		wait "$client" || true
	done
	for leg in $LEGS; do
		case $leg in
			direct) url=$(printf 'http://127.0.0.1:%s/v1/chat/completions,' "${BACKEND_PORTS[@]}") url=${url%,}
				pid=${sims[0]} ;;
			scg) url="http://127.0.0.1:$SCG_PORT/v1/chat/completions" pid=$scg ;;
			infergate) url="http://127.0.0.1:$INFERGATE_PORT/v1/chat/completions" pid=$infergate ;;
			*) echo "unknown leg $leg" >&2; exit 2 ;;
		esac
		read -r rss_before heap_before direct_before < <(memory_kb "$pid")
		hold "$url" "$streams"
		for _ in $(seq 1 $((OPEN_TIMEOUT * 4 + 8))); do
			grep -q "OPEN" "$work/client.out" 2>/dev/null && break
			sleep 0.25
		done
		read -r rss_open heap_open direct_open < <(memory_kb "$pid")
		wait "$client" || true
		awk -v config="$config" -v leg="$leg" -v n="$streams" \
			-v rss=$(((rss_open - rss_before))) -v heap=$(((heap_open - heap_before))) \
			-v direct=$(((${direct_open:-0} - ${direct_before:-0}))) '
			/^NOT OPEN/ { open = n - $3 }
			/^NOT OPEN/ || /^failures/ { print "warning: " config " " leg ": " $0 > "/dev/stderr" }
			/^streams/ { complete = $4; failed = $6; events = $8 }
			/^gap_ms/ { p50 = $3; p90 = $5; p99 = $7; p999 = $9; max = $11 }
			/^first_event_ms/ { f50 = $3; f99 = $5 }
			END { if (open == "") open = n
				memory = (leg == "direct" || open == 0) ? "- - -" : sprintf("%.1f %.1f %.1f", rss / open, heap / open, direct / open)
				printf "%s %s %d %s %s %s %s %s %s %s %s %s %s %s\n", config, leg, n, complete, failed, events,
				p50, p90, p99, p999, max, f50, f99, memory }' "$work/client.out"
	done
	cleanup
done
