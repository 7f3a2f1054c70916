#!/usr/bin/env bash
# What the gateway costs, side by side in one run, against the same zero-latency backends:
#   direct    wrk straight at one backend;
#   nginx     nginx (one worker process) proxying round-robin to the backends;
#   scg       a stock Spring Cloud Gateway round-robin route (bench/plain-gateway);
#   infergate the Infergate jar with its default profile.
# The backends are four nginx servers answering with canned responses recorded from the simulator: a chat
# completion, a stream of 64 SSE content events, /v1/models and a vLLM /metrics exposition. So every leg measures
# only the proxy in front of them. A canned stream arrives in a few TCP segments, so per-event work is hardly
# exercised: BACKENDS=sim instead runs four simulators (--perf-profile zero), which write each SSE event in its own
# HTTP chunk, one decoding step apart: EVENT_GAP_MS (0) sets the step. The stream mode then also reports events/s
# and the proxy's CPU per event. BACKENDS=events does the same with routing-bench.jar's event-server, one process with
# one event-loop thread serving the four ports: events shaped as vLLM's, each in its own chunk and flush, EVENT_GAP_MS
# apart, so that more of the machine is left to the proxies.
#
# Both JVM gateways are warmed up under load first (WARMUP, per mode), then the legs alternate for ROUNDS rounds (in
# LEGS' order in odd rounds, in reverse in even ones),
# for non-streamed and for streamed requests. Per leg it prints requests/s, p50, p99, non-2xx responses and the
# proxy's CPU per request (from /proc, utime + stime over the leg); then the medians and the ratios.
# WARMUP_CURVE=1 instead starts each JVM gateway cold and prints requests/s per 5 s window for CURVE_SECONDS, one
# gateway after the other: CURVE_LEGS ("scg infergate"; infergate2 too).
#
# Mode "paced" measures latency below saturation: PACED_CONNECTIONS (16) connections, each pausing between its
# requests so that together they offer PACED_RATE requests/s; without PACED_RATE, half of Infergate's median
# requests/s in this run's "plain" mode (list plain before paced). The added p50 of a proxy is its p50 there minus
# direct's.
# Environment: BACKENDS (canned), EVENT_GAP_MS (0), SIM_MAX_NUM_SEQS (4096, each simulator's batch limit), ROUNDS (3), CONNECTIONS (32), THREADS (1), DURATION (15s), WARMUP (60s), MODES ("plain stream"),
# PACED_RATE, PACED_CONNECTIONS (16), UNIQUE_TURNS (0; 1 gives every plain and paced request a user turn of its own,
# so that a gateway with a tokenizer encodes that turn afresh each time), CHAT_WORDS (0; N lengthens the plain chat's
# user turn by N common English words, about one token each),
# LEGS ("direct nginx scg infergate"), JAVA (java), WARMUP_CURVE (0), CURVE_SECONDS (60), and JVM options per
# gateway: INFERGATE_JAVA_OPTS, SCG_JAVA_OPTS (e.g. a JFR recording:
# INFERGATE_JAVA_OPTS="-XX:StartFlightRecording=filename=/tmp/infergate.jfr,settings=profile").
# The leg infergate2 runs INFERGATE2_JAR (default: the same jar) with INFERGATE2_ARGS added to its command line and
# INFERGATE2_JAVA_OPTS (default: INFERGATE_JAVA_OPTS) as its JVM options and INFERGATE2_JAVA (default: JAVA) as its
# JDK, to weigh a setting, another build or another JDK against this one in the same run:
# LEGS="scg infergate infergate2" INFERGATE2_ARGS="--management.tracing.enabled=false".
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/scripts/wrk-legs.sh # cpu_ticks, wrk_post_script
root=$(pwd)

ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-32}
PACED_CONNECTIONS=${PACED_CONNECTIONS:-16}
PACED_RATE=${PACED_RATE:-}
THREADS=${THREADS:-1}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-60s}
MODES=${MODES:-plain stream}
LEGS=${LEGS:-direct nginx scg infergate}
JAVA=${JAVA:-java}
INFERGATE2_JAVA=${INFERGATE2_JAVA:-$JAVA}
read -r -a infergate_java_opts <<<"${INFERGATE_JAVA_OPTS:-}"
read -r -a scg_java_opts <<<"${SCG_JAVA_OPTS:-}"
read -r -a infergate2_java_opts <<<"${INFERGATE2_JAVA_OPTS-${INFERGATE_JAVA_OPTS:-}}"
BACKENDS=${BACKENDS:-canned}
EVENT_GAP_MS=${EVENT_GAP_MS:-0}
SIM_MAX_NUM_SEQS=${SIM_MAX_NUM_SEQS:-4096}
case $BACKENDS in canned | sim | events) ;; *) echo "BACKENDS must be canned, sim or events, not $BACKENDS" >&2; exit 2 ;; esac
WARMUP_CURVE=${WARMUP_CURVE:-0}
CURVE_SECONDS=${CURVE_SECONDS:-60}
UNIQUE_TURNS=${UNIQUE_TURNS:-0}
CHAT_WORDS=${CHAT_WORDS:-0}
BACKEND_PORTS=(19101 19102 19103 19104)
NGINX_PORT=19110
SCG_PORT=19120
INFERGATE_PORT=19130
INFERGATE_MANAGEMENT_PORT=19131
INFERGATE2_PORT=19140
INFERGATE2_MANAGEMENT_PORT=19141

SIM_JAR=model-server-sim/target/model-server-sim.jar
GATEWAY_JAR=${GATEWAY_JAR:-gateway-app/target/gateway-app.jar}
INFERGATE2_JAR=${INFERGATE2_JAR:-$GATEWAY_JAR}
SCG_JAR=bench/plain-gateway/target/plain-gateway.jar
BENCH_JAR=bench/target/routing-bench.jar

for tool in wrk nginx curl python3; do
	command -v "$tool" >/dev/null || { echo "$tool is not installed (Debian packages wrk, nginx, curl, python3)" >&2; exit 1; }
done
[ -f "$SIM_JAR" ] && [ -f "$GATEWAY_JAR" ] && [ -f "$SCG_JAR" ] \
	|| ./mvnw -B -q -DskipTests package -pl gateway-app,bench/plain-gateway -am

work=$(mktemp -d /tmp/gateway-compare.XXXXXX)
chmod 755 "$work" # nginx's workers read the canned responses
pids=()
sims=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	[ -f "$work/backends.pid" ] && kill "$(cat "$work/backends.pid")" 2>/dev/null || true
	for p in "${sims[@]}"; do kill "$p" 2>/dev/null || true; done
	[ -f "$work/proxy.pid" ] && kill "$(cat "$work/proxy.pid")" 2>/dev/null || true
	wait 2>/dev/null || true
}
trap cleanup EXIT

wait_for() { # url seconds
	for _ in $(seq 1 $(($2 * 4))); do
		curl -sf -o /dev/null "$1" && return 0
		sleep 0.25
	done
	echo "no answer from $1; logs in $work" >&2
	exit 1
}

# --- canned responses, recorded from the simulator
sim_args=(--model bench-model --perf-profile zero --beta0 $((EVENT_GAP_MS * 1000)) --max-num-seqs "$SIM_MAX_NUM_SEQS")
"$JAVA" -jar "$SIM_JAR" --port 19100 "${sim_args[@]}" >"$work/sim.log" 2>&1 &
sim=$!
wait_for http://127.0.0.1:19100/health 60
user_turn="Name three prime numbers."
if [ "$CHAT_WORDS" -gt 0 ]; then # a longer user turn: the question, then CHAT_WORDS common English words
	user_turn+=$(awk -v n="$CHAT_WORDS" 'BEGIN {
		split("the of and a to in is was it for on with as by at from his her an which or be are this that had " \
			"not but what all were when we there can more time people way day man", words, " ")
		srand(7)
		for (i = 0; i < n; i++) printf " %s", words[int(rand() * 40) + 1]
	}')
fi
chat='{"model":"bench-model","max_tokens":8,"messages":[{"role":"system","content":"You are a helpful assistant."},{"role":"user","content":"'"$user_turn"'"}]}'
stream='{"model":"bench-model","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"Count to sixty-four."}]}'
mkdir -p "$work/canned/v1"
curl -sf http://127.0.0.1:19100/metrics >"$work/canned/metrics"
curl -sf http://127.0.0.1:19100/v1/models >"$work/canned/v1/models"
curl -sf http://127.0.0.1:19100/v1/chat/completions -H 'content-type: application/json' -d "$chat" >"$work/canned/completion.json"
curl -sfN http://127.0.0.1:19100/v1/chat/completions -H 'content-type: application/json' -d "$stream" >"$work/canned/stream.sse"
kill "$sim"; wait "$sim" 2>/dev/null || true
events=$(grep -c '^data: {' "$work/canned/stream.sse")

# --- nginx: the backends, and the nginx leg
servers=""
upstream=""
for port in "${BACKEND_PORTS[@]}"; do
	servers+="
	server {
		listen 127.0.0.1:$port;
		root $work/canned;
		location = /metrics { default_type 'text/plain; version=0.0.4'; }
		location = /v1/models { default_type application/json; }
		location = /health { return 200; }
		location = /v1/chat/completions {
			set \$canned /completion.json;
			if (\$http_x_bench_stream) { set \$canned /stream.sse; }
			rewrite ^ \$canned last;
		}
		# static files refuse POST with 405; error_page answers it with the file
		location = /completion.json { internal; default_type application/json; error_page 405 =200 \$uri; }
		location = /stream.sse { internal; default_type text/event-stream; error_page 405 =200 \$uri; }
	}"
	upstream+="server 127.0.0.1:$port; "
done
cat >"$work/backends.conf" <<EOF
worker_processes 1;
pid $work/backends.pid;
error_log $work/backends-error.log warn;
events { worker_connections 4096; }
http {
	access_log off;
	keepalive_requests 1000000;
	$servers
}
EOF
cat >"$work/proxy.conf" <<EOF
worker_processes 1;
pid $work/proxy.pid;
error_log $work/proxy-error.log warn;
events { worker_connections 4096; }
http {
	access_log off;
	keepalive_requests 1000000;
	upstream backends { $upstream keepalive 64; }
	server {
		listen 127.0.0.1:$NGINX_PORT;
		location / {
			proxy_pass http://backends;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_buffering off;
		}
	}
}
EOF
if [ "$BACKENDS" = events ]; then
	[ -f "$BENCH_JAR" ] || ./mvnw -B -q -DskipTests package -pl bench -am
	"$JAVA" -jar "$BENCH_JAR" event-server --ports "$(IFS=,; echo "${BACKEND_PORTS[*]}")" --gap-ms "$EVENT_GAP_MS" \
		>"$work/event-server.log" 2>&1 &
	sims+=($!)
	for port in "${BACKEND_PORTS[@]}"; do wait_for "http://127.0.0.1:$port/health" 60; done
elif [ "$BACKENDS" = sim ]; then
	for port in "${BACKEND_PORTS[@]}"; do
		"$JAVA" -jar "$SIM_JAR" --port "$port" "${sim_args[@]}" >"$work/sim-$port.log" 2>&1 &
		sims+=($!)
	done
	for port in "${BACKEND_PORTS[@]}"; do wait_for "http://127.0.0.1:$port/health" 60; done
else
	nginx -c "$work/backends.conf" -p "$work"
fi
nginx -c "$work/proxy.conf" -p "$work"
wait_for "http://127.0.0.1:${BACKEND_PORTS[0]}/metrics" 10
wait_for "http://127.0.0.1:$NGINX_PORT/v1/models" 10

# --- the JVM gateways
start_scg() {
	args=()
	for i in "${!BACKEND_PORTS[@]}"; do
		args+=("--spring.cloud.discovery.client.simple.instances.backends[$i].uri=http://127.0.0.1:${BACKEND_PORTS[$i]}")
	done
	"$JAVA" "${scg_java_opts[@]}" -jar "$SCG_JAR" --server.port=$SCG_PORT "${args[@]}" >"$work/scg.log" 2>&1 &
	scg=$!
	pids+=($scg)
	wait_for "http://127.0.0.1:$SCG_PORT/v1/models" 120
}
start_infergate() { # [jar port management-port extra-arguments...]; sets $infergate to its pid
	local jar=${1:-$GATEWAY_JAR} port=${2:-$INFERGATE_PORT} management=${3:-$INFERGATE_MANAGEMENT_PORT}
	shift 3 || true
	local -a java_opts=("${infergate_java_opts[@]}")
	local java=$JAVA
	if [ "$port" = "$INFERGATE2_PORT" ]; then
		java_opts=("${infergate2_java_opts[@]}")
		java=$INFERGATE2_JAVA
	fi
	endpoints=$(printf 'http://127.0.0.1:%s,' "${BACKEND_PORTS[@]}")
	"$java" "${java_opts[@]}" -jar "$jar" --server.port="$port" --management.server.port="$management" \
		--infergate.pools.bench.endpoints="${endpoints%,}" --logging.level.root=WARN "$@" >"$work/infergate-$port.log" 2>&1 &
	infergate=$!
	pids+=($infergate)
	wait_for "http://127.0.0.1:$management/actuator/health/readiness" 120
}
start_infergate2() { # the same jar with INFERGATE2_ARGS added: a leg to compare a setting against the defaults
	local first=${infergate:-}
	read -r -a extra <<<"${INFERGATE2_ARGS:-}"
	start_infergate "$INFERGATE2_JAR" "$INFERGATE2_PORT" "$INFERGATE2_MANAGEMENT_PORT" "${extra[@]}"
	infergate2=$infergate
	infergate=$first
}

wrk_post_script "$work/plain.lua" "$chat"
if [ "$UNIQUE_TURNS" = 1 ]; then # every plain (and paced) request's user turn its own: "... numbers after <thread>-<n>."
	cat >>"$work/plain.lua" <<'EOF'
local threads = 0
function setup(thread)
	threads = threads + 1
	thread:set("tid", threads)
end
local turn = 0
local head, tail = string.match(wrk.body, "^(.*Name three prime numbers)(%..*)$")
function request()
	turn = turn + 1
	return wrk.format(nil, nil, nil, head .. " after " .. (tid or 0) .. "-" .. turn .. tail)
end
EOF
fi
wrk_post_script "$work/stream.lua" "$stream" x-bench-stream=1

port_of() {
	case $1 in
		direct) echo "${BACKEND_PORTS[0]}" ;;
		nginx) echo "$NGINX_PORT" ;;
		scg) echo "$SCG_PORT" ;;
		infergate) echo "$INFERGATE_PORT" ;;
		infergate2) echo "$INFERGATE2_PORT" ;;
	esac
}
pids_of() { # the proxy's processes, for its CPU time
	case $1 in
		direct) if [ "$BACKENDS" != canned ]; then echo "${sims[0]}"; return; fi
			pgrep -f "nginx: worker process" | while read -r p; do
			[ "$(cat /proc/"$p"/status | awk '/^PPid/ {print $2}')" = "$(cat "$work/backends.pid")" ] && echo "$p"; done ;;
		nginx) pgrep -f "nginx: worker process" | while read -r p; do
			[ "$(cat /proc/"$p"/status | awk '/^PPid/ {print $2}')" = "$(cat "$work/proxy.pid")" ] && echo "$p"; done ;;
		scg) echo "$scg" ;;
		infergate) echo "$infergate" ;;
		infergate2) echo "$infergate2" ;;
	esac
}

run_leg() { # leg mode duration -> "requests/s p50 p99 non2xx cpu_us_per_request"
	local leg=$1 mode=$2 duration=$3 port
	port=$(port_of "$leg")
	# shellcheck disable=SC2046
	set -- $(pids_of "$leg")
	local before after out
	before=$(cpu_ticks "$@")
	local connections=$CONNECTIONS
	[ "$mode" = paced ] && connections=$PACED_CONNECTIONS
	out=$(wrk -t"$THREADS" -c"$connections" -d"$duration" --latency -s "$work/$mode.lua" "http://127.0.0.1:$port")
	after=$(cpu_ticks "$@")
	echo "$out" | awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" '
		/requests in/ { requests = $1 }
		/Requests\/sec/ { rps = $2 }
		$1 == "50%" { p50 = $2 }
		$1 == "99%" { p99 = $2 }
		/Non-2xx/ { errors = $NF }
		END { printf "%s %s %s %s %.1f\n", rps, p50, p99, (errors == "" ? 0 : errors),
			(requests > 0 ? ticks / hz * 1e6 / requests : 0) }'
}

echo "machine: $(nproc) cores, $("$JAVA" -version 2>&1 | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$INFERGATE2_JAVA" != "$JAVA" ]; then
	echo "infergate2 on: $("$INFERGATE2_JAVA" -version 2>&1 | head -1)"
fi
if [ "$BACKENDS" = events ]; then
	echo "backends: event-server on ${#BACKEND_PORTS[@]} ports, each SSE event its own chunk, $EVENT_GAP_MS ms apart; stream: $events SSE content events per response"
elif [ "$BACKENDS" = sim ]; then
	echo "backends: ${#BACKEND_PORTS[@]} simulators, each SSE event its own chunk, $EVENT_GAP_MS ms apart; stream: $events SSE content events per response"
else
	echo "backends: ${#BACKEND_PORTS[@]} nginx servers; stream: $events SSE content events per response"
fi

if [ "$WARMUP_CURVE" = 1 ]; then
	echo "leg window_end_s requests/s"
	for leg in ${CURVE_LEGS:-scg infergate}; do
		"start_$leg"
		for window in $(seq 5 5 "$CURVE_SECONDS"); do
			echo "$leg $window $(run_leg "$leg" plain 5s | cut -d' ' -f1)"
		done
		kill "$(pids_of "$leg")"; wait "$(pids_of "$leg")" 2>/dev/null || true
	done
	exit 0
fi

for leg in $LEGS; do
	case $leg in scg) start_scg ;; infergate) start_infergate ;; infergate2) start_infergate2 ;; esac
done
for mode in $MODES; do
	for leg in $LEGS; do
		[ "$mode" = paced ] && continue # warmed up by plain
		case $leg in scg | infergate | infergate2) run_leg "$leg" "$mode" "$WARMUP" >/dev/null ;; esac
	done
done

results="$work/results"
echo "mode round leg requests/s p50 p99 non-2xx cpu_us_per_request"
paced_script() { # writes paced.lua: the plain request, each connection pausing so all offer PACED_RATE in total
	if [ -z "$PACED_RATE" ]; then
		PACED_RATE=$(awk '$1 == "plain" && $3 == "infergate" { print $4 }' "$results" | sort -n \
			| awk '{ v[NR] = $1 } END { if (NR) printf "%d", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 2 }')
		[ -n "$PACED_RATE" ] || { echo "mode paced needs PACED_RATE, or mode plain with an infergate leg before it" >&2; exit 2; }
	fi
	cp "$work/plain.lua" "$work/paced.lua"
	echo "function delay() return $((PACED_CONNECTIONS * 1000 / PACED_RATE)) end" >>"$work/paced.lua"
	echo "paced: $PACED_CONNECTIONS connections offering $PACED_RATE requests/s (a pause of $((PACED_CONNECTIONS * 1000 / PACED_RATE)) ms after each answer)"
}

for mode in $MODES; do
	[ "$mode" = paced ] && paced_script
	for round in $(seq 1 "$ROUNDS"); do
		order=$LEGS # odd rounds in LEGS' order, even rounds the other way round, so no leg always runs first or last
		[ $((round % 2)) -eq 0 ] && order=$(echo "$LEGS" | tr ' ' '\n' | tac | tr '\n' ' ')
		for leg in $order; do
			echo "$mode $round $leg $(run_leg "$leg" "$mode" "$DURATION")" | tee -a "$results"
		done
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" "$events" <<'PY'
import statistics, sys
events = int(sys.argv[2])
def ms(v):
    for unit, scale in (("us", 1e-3), ("ms", 1.0), ("s", 1e3)):
        if v.endswith(unit):
            return float(v[:-len(unit)]) * scale
    return float(v)
fig = {}
for line in open(sys.argv[1]):
    mode, _, leg, rps, p50, p99, errors, cpu = line.split()
    f = fig.setdefault((mode, leg), {"rps": [], "p50": [], "p99": [], "cpu": [], "errors": 0})
    f["rps"].append(float(rps)); f["p50"].append(ms(p50)); f["p99"].append(ms(p99)); f["cpu"].append(float(cpu))
    f["errors"] += int(errors)
for mode in dict.fromkeys(m for m, _ in fig):
    print(f"\n{mode}: medians of the rounds")
    print("leg        requests/s     p50 ms     p99 ms   CPU µs/request  non-2xx")
    med = {}
    for (m, leg), f in fig.items():
        if m != mode:
            continue
        med[leg] = {k: statistics.median(v) for k, v in f.items() if k != "errors"}
        d = med[leg]
        print(f"{leg:<10} {d['rps']:>10.0f} {d['p50']:>10.2f} {d['p99']:>10.2f} {d['cpu']:>16.1f} {f['errors']:>8}")
    if mode == "stream":
        print(f"per event ({events} SSE events a stream): leg, events/s, CPU µs/event")
        for leg, d in med.items():
            print(f"{leg:<10} {d['rps'] * events:>10.0f} {d['cpu'] / events:>16.2f}")
    for mine in ("infergate", "infergate2"):
        if mine not in med:
            continue
        i = med[mine]
        for other in ("infergate", "scg", "nginx", "direct"):
            if other in med and other != mine:
                o = med[other]
                if other == "direct":
                    print(f"{mine}: p50 {i['p50'] - o['p50']:.2f} ms above direct's")
                print(f"{mine}/{other}: throughput {i['rps'] / o['rps']:.2f}x, p50 {i['p50'] / o['p50']:.2f}x, "
                      f"CPU per request {i['cpu'] / o['cpu']:.2f}x" if o['cpu'] else "")
PY
