# Shared by the wrk scripts that compare gateway setups in alternating rounds: start zero-latency simulators and
# gateways, wait for readiness, run one wrk round, print medians. Source it from a script that has cd'ed to the
# repository root and set -euo pipefail.

SIM_JAR=${SIM_JAR:-model-server-sim/target/model-server-sim.jar}
ROUNDS=${ROUNDS:-6}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-10s}
# The management port's admin in these runs: printf %s bench-password | java -jar gateway-app.jar hash-password
BENCH_PASSWORD=bench-password
BENCH_PASSWORD_HASH='{bcrypt}$2a$10$XHhhR4ZpuXNTqK3jw0Iom.iBDLUi8PvQyoCxNl6c5d1nj1AoOIjWy'

command -v wrk >/dev/null || { echo "wrk is not installed (Debian package 'wrk')" >&2; exit 1; }
# wrk_leg; its await_ready (by URL) is replaced below by one that takes a management port
. bench/scripts/wrk-legs.sh

rounds_pids=()
rounds_cleanup() {
	for p in "${rounds_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap rounds_cleanup EXIT

# start_sims FIRST_PORT COUNT [PERF_PROFILE]: simulators serving model bench-model, zero-latency unless a perf profile
# is given; sets SIM_URLS, comma-separated
start_sims() {
	local urls=() port profile=${3:-zero}
	for i in $(seq 0 $(($2 - 1))); do
		port=$(($1 + i))
		java -jar "$SIM_JAR" --port "$port" --model bench-model --perf-profile "$profile" >"/tmp/gateway-rounds-sim-$port.log" 2>&1 &
		rounds_pids+=($!)
		urls+=("http://127.0.0.1:${port}")
	done
	SIM_URLS=$(IFS=,; echo "${urls[*]}")
	for url in "${urls[@]}"; do
		for _ in $(seq 1 100); do
			curl -sf "${url}/health" >/dev/null && break
			sleep 0.1
		done
	done
}

# start_gateway JAR API_PORT MANAGEMENT_PORT ENDPOINTS [ARGS...]: a gateway routing pool 'bench' to ENDPOINTS, with
# the JVM options in GATEWAY_JAVA_OPTS (space-separated); its log is /tmp/gateway-rounds-gateway-API_PORT.log
start_gateway() {
	local jar=$1 api=$2 management=$3 endpoints=$4 java_opts
	shift 4
	read -r -a java_opts <<<"${GATEWAY_JAVA_OPTS:-}"
	java "${java_opts[@]}" -jar "$jar" --server.port="$api" --management.server.port="$management" \
		--infergate.pools.bench.endpoints="$endpoints" \
		--infergate.management.admin.password-hash="$BENCH_PASSWORD_HASH" \
		--logging.level.root=WARN "$@" >"/tmp/gateway-rounds-gateway-$api.log" 2>&1 &
	rounds_pids+=($!)
}

# await_ready MANAGEMENT_PORT
await_ready() {
	for _ in $(seq 1 240); do
		curl -sf "http://127.0.0.1:$1/actuator/health/readiness" >/dev/null && return 0
		sleep 0.5
	done
	echo "gateway with management port $1 not ready; see /tmp/gateway-rounds-gateway-*.log" >&2
	exit 1
}

# warm_up API_PORT
warm_up() {
	wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/wrk/chat-completion.lua "http://127.0.0.1:$1" >/dev/null
}

# wrk_round NAME API_PORT: prints "NAME requests/s p50 p99 non-2xx" (wrk_leg of wrk-legs.sh)
wrk_round() {
	wrk_leg "$1" "http://127.0.0.1:$2"
}

# summarize RESULTS_FILE BASELINE OTHER: medians per setup, the ratio and the spread of the baseline's rounds
summarize() {
	python3 - "$@" <<'PY'
import statistics, sys
def ms(v):
    return float(v[:-2]) if v.endswith("ms") else float(v[:-2]) / 1000 if v.endswith("us") else float(v[:-1]) * 1000
path, baseline, other = sys.argv[1:4]
fig = {}
for line in open(path):
    _, name, rps, p50, p99, errors = line.split()
    f = fig.setdefault(name, {"rps": [], "p50": [], "p99": [], "errors": 0})
    f["rps"].append(float(rps)); f["p50"].append(ms(p50)); f["p99"].append(ms(p99)); f["errors"] += int(errors)
for name in (baseline, other):
    f = fig[name]
    print(f"median {name}: {statistics.median(f['rps']):.0f} requests/s (rounds {', '.join(f'{r:.0f}' for r in f['rps'])}), "
          f"p50 {statistics.median(f['p50']):.2f} ms, p99 {statistics.median(f['p99']):.2f} ms, non-2xx {f['errors']}")
b, o = fig[baseline], fig[other]
ratio = statistics.median(o["rps"]) / statistics.median(b["rps"])
spread = (max(b["rps"]) - min(b["rps"])) / statistics.median(b["rps"])
print(f"{other}/{baseline}: throughput {ratio:.3f}x ({(ratio - 1) * 100:+.1f}%); spread of {baseline}'s rounds "
      f"{spread * 100:.1f}% of its median")
PY
}
