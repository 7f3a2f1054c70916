#!/usr/bin/env bash
# What a routing decision costs on the Endpoint Picker's gRPC path, against the HTTP path's, at ENDPOINTS endpoints
# (100): one gateway jar, the picker on (ext_proc, port 19232) beside the OpenAI API (port 19230), one pool of
# ENDPOINTS canned backends (one nginx process answering /metrics, /v1/models and a chat completion on ENDPOINTS
# ports, recorded from the simulator), scraped every SCRAPE_INTERVAL (1s: 100 endpoints at the default 50 ms would
# be 2,000 scrapes a second on this machine).
#
# Legs, alternating for ROUNDS rounds after WARMUP of each:
#   picker   routing-bench.jar picker-load plays Envoy: CONNECTIONS clients, each a request at a time: headers and a
#            short chat body, the picker's route, then a canned answer with usage fed back through the picker. No
#            model server is called: the time is the picker's decision and its gRPC exchange.
#   http     wrk, CONNECTIONS connections, the same chat through the gateway's HTTP route to the canned backends:
#            the decision plus proxying the request and its response.
#   direct   wrk straight to one canned backend: what the http leg's added latency is measured against.
# Then both gateway legs paced at PACED_RATE requests/s (half the http leg's plain rate unless given) for their
# p50 and p99 at part load.
#
# Prints per round: leg requests/s p50_ms p99_ms cpu_us_per_request (the gateway's CPU; direct: nginx's), and the
# medians. Needs wrk, nginx, curl; builds the jars when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/scripts/wrk-legs.sh # await_ready, cpu_ticks, wrk_post_script

ENDPOINTS=${ENDPOINTS:-100}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-15}
WARMUP=${WARMUP:-30}
SCRAPE_INTERVAL=${SCRAPE_INTERVAL:-1s}
PACED_RATE=${PACED_RATE:-}
JAVA=${JAVA:-java}
JAVA_OPTS=${JAVA_OPTS:-}
BASE_PORT=19300
API_PORT=19230
MANAGEMENT_PORT=19231
PICKER_PORT=19232
SIM_JAR=model-server-sim/target/model-server-sim.jar
GATEWAY_JAR=${GATEWAY_JAR:-gateway-app/target/gateway-app.jar}
BENCH_JAR=bench/target/routing-bench.jar

for tool in wrk nginx curl; do
	command -v "$tool" >/dev/null || { echo "$tool is not installed (Debian packages wrk, nginx, curl)" >&2; exit 1; }
done
[ -f "$SIM_JAR" ] && [ -f "$GATEWAY_JAR" ] && [ -f "$BENCH_JAR" ] \
	|| ./mvnw -B -q -DskipTests package -pl gateway-app,bench -am

work=$(mktemp -d /tmp/picker-overhead.XXXXXX)
chmod 755 "$work"
gateway=
cleanup() {
	[ -n "$gateway" ] && kill "$gateway" 2>/dev/null || true
	[ -f "$work/backends.pid" ] && kill "$(cat "$work/backends.pid")" 2>/dev/null || true
	wait 2>/dev/null || true
}
trap cleanup EXIT

# --- canned responses, recorded from the simulator
"$JAVA" -jar "$SIM_JAR" --port 19299 --model llama --perf-profile zero >"$work/sim.log" 2>&1 &
sim=$!
await_ready http://127.0.0.1:19299/health "$work/sim.log"
chat='{"model":"llama","max_tokens":16,"messages":[{"role":"user","content":"Where should this request go? Pick the best replica."}]}'
mkdir -p "$work/canned/v1"
curl -sf http://127.0.0.1:19299/metrics >"$work/canned/metrics"
curl -sf http://127.0.0.1:19299/v1/models >"$work/canned/v1/models"
curl -sf http://127.0.0.1:19299/v1/chat/completions -H 'content-type: application/json' -d "$chat" >"$work/canned/completion.json"
kill "$sim"; wait "$sim" 2>/dev/null || true

listens=""
endpoints=""
for i in $(seq 0 $((ENDPOINTS - 1))); do
	listens+="listen 127.0.0.1:$((BASE_PORT + i)); "
	endpoints+="http://127.0.0.1:$((BASE_PORT + i)),"
done
cat >"$work/backends.conf" <<EOF
worker_processes 1;
pid $work/backends.pid;
error_log $work/backends-error.log warn;
events { worker_connections 8192; }
http {
	access_log off;
	keepalive_requests 1000000;
	server {
		$listens
		root $work/canned;
		location = /metrics { default_type 'text/plain; version=0.0.4'; }
		location = /v1/models { default_type application/json; }
		location = /health { return 200; }
		location = /v1/chat/completions { rewrite ^ /completion.json last; }
		location = /completion.json { internal; default_type application/json; error_page 405 =200 \$uri; }
	}
}
EOF
nginx -c "$work/backends.conf" -p "$work"
await_ready "http://127.0.0.1:$BASE_PORT/metrics" "$work/backends-error.log"

# shellcheck disable=SC2086
"$JAVA" $JAVA_OPTS -jar "$GATEWAY_JAR" --server.port=$API_PORT --management.server.port=$MANAGEMENT_PORT \
	--infergate.pools.bench.endpoints="${endpoints%,}" --infergate.pools.bench.scrape.interval="$SCRAPE_INTERVAL" \
	--infergate.models.llama.pool=bench --infergate.models.llama.target-model=llama \
	--infergate.endpoint-picker.enabled=true --infergate.endpoint-picker.port=$PICKER_PORT \
	--infergate.endpoint-picker.health-port=0 --logging.level.root=WARN >"$work/gateway.log" 2>&1 &
gateway=$!
await_ready "http://127.0.0.1:$MANAGEMENT_PORT/actuator/health/readiness" "$work/gateway.log"
sleep 3 # every endpoint scraped at least once

wrk_post_script "$work/plain.lua" "$chat"
backend_workers() {
	pgrep -f "nginx: worker process" | while read -r p; do
		[ "$(awk '/^PPid/ {print $2}' /proc/"$p"/status)" = "$(cat "$work/backends.pid")" ] && echo "$p"; done
}

run_leg() { # leg seconds [rate] -> "requests/s p50 p99 cpu_us_per_request"
	local leg=$1 seconds=$2 rate=${3:-} before after out pids
	if [ "$leg" = direct ]; then pids=$(backend_workers); else pids=$gateway; fi
	# shellcheck disable=SC2086
	before=$(cpu_ticks $pids)
	case $leg in
		picker)
			out=$("$JAVA" -jar "$BENCH_JAR" picker-load --target 127.0.0.1:$PICKER_PORT --concurrency "$CONNECTIONS" \
				--duration "$seconds" --warmup 0 ${rate:+--rate "$rate"} 2>>"$work/picker-load.log")
			# shellcheck disable=SC2086
			after=$(cpu_ticks $pids)
			echo "$out" | tr ' ' '\n' | awk -F= -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" '
				{ v[$1] = $2 }
				END { if (v["failed"] > 0 || v["immediate"] != "none") { printf "picker-errors:%s/%s ", v["failed"], v["immediate"] }
					printf "%s %s %s %.1f\n", v["requests_per_s"], v["decision_p50_ms"], v["decision_p99_ms"],
						(v["requests"] > 0 ? ticks / hz * 1e6 / v["requests"] : 0) }' ;;
		http | direct)
			local port=$API_PORT script=$work/plain.lua
			[ "$leg" = direct ] && port=$BASE_PORT
			if [ -n "$rate" ]; then
				cp "$work/plain.lua" "$work/paced.lua"
				echo "function delay() return $((CONNECTIONS * 1000 / rate)) end" >>"$work/paced.lua"
				script=$work/paced.lua
			fi
			out=$(wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" --latency -s "$script" "http://127.0.0.1:$port")
			# shellcheck disable=SC2086
			after=$(cpu_ticks $pids)
			echo "$out" | awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" '
				function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
				/requests in/ { requests = $1 }
				/Requests\/sec/ { rps = $2 }
				$1 == "50%" { p50 = ms($2) }
				$1 == "99%" { p99 = ms($2) }
				/Non-2xx/ { errors = $NF }
				END { if (errors > 0) printf "non-2xx:%s ", errors
					printf "%s %.3f %.3f %.1f\n", rps, p50, p99, (requests > 0 ? ticks / hz * 1e6 / requests : 0) }' ;;
	esac
}

echo "machine: $(nproc) cores, $("$JAVA" -version 2>&1 | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "endpoints: $ENDPOINTS canned backends (one nginx), scraped every $SCRAPE_INTERVAL; $CONNECTIONS clients"
for leg in picker http; do run_leg "$leg" "$WARMUP" >/dev/null; done

results=$work/results
echo "mode round leg requests/s p50_ms p99_ms cpu_us_per_request"
for round in $(seq 1 "$ROUNDS"); do
	for leg in picker http direct; do
		line="plain $round $leg $(run_leg "$leg" "$DURATION")"
		echo "$line"; echo "$line" >>"$results"
	done
done
if [ -z "$PACED_RATE" ]; then
	PACED_RATE=$(awk '$1 == "plain" && $3 == "http" { print $4 }' "$results" | sort -n \
		| awk '{ v[NR] = $1 } END { printf "%d", v[int((NR + 1) / 2)] / 2 }')
fi
echo "paced: $PACED_RATE requests/s offered to each leg"
for round in $(seq 1 "$ROUNDS"); do
	for leg in picker http direct; do
		line="paced $round $leg $(run_leg "$leg" "$DURATION" "$PACED_RATE")"
		echo "$line"; echo "$line" >>"$results"
	done
done
echo "medians: mode leg requests/s p50_ms p99_ms cpu_us_per_request"
for mode in plain paced; do
	for leg in picker http direct; do
		awk -v mode=$mode -v leg=$leg '$1 == mode && $3 == leg && $4 ~ /^[0-9.]+$/' "$results" | awk -v mode=$mode -v leg=$leg '
			{ for (i = 4; i <= 7; i++) v[i, NR] = $i; n = NR }
			END { printf "%s %s", mode, leg
				for (i = 4; i <= 7; i++) { m = 0; for (j = 1; j <= n; j++) a[j] = v[i, j]
					for (j = 1; j <= n; j++) for (k = j + 1; k <= n; k++) if (a[k] + 0 < a[j] + 0) { t = a[j]; a[j] = a[k]; a[k] = t }
					printf " %s", a[int((n + 1) / 2)] }
				printf "\n" }'
	done
done
