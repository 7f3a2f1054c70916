#!/usr/bin/env bash
# Gateway overhead, measured side by side in one run: the same wrk load (non-streaming chat completions,
# 8 output tokens) straight at a zero-latency simulator and through the gateway in front of it, alternating
# ROUNDS times so both see the same machine noise. Prints requests/s and p50/p99 per round, then the medians
# and their ratios.
# Environment: ROUNDS (3), CONNECTIONS (64), THREADS (2), DURATION (15s), WARMUP (10s).
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/scripts/wrk-legs.sh

SIM_JAR=model-server-sim/target/model-server-sim.jar
GATEWAY_JAR=gateway-app/target/gateway-app.jar
SIM_PORT=${SIM_PORT:-18100}
API_PORT=${API_PORT:-18180}
MANAGEMENT_PORT=${MANAGEMENT_PORT:-18181}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-10s}

command -v wrk >/dev/null || { echo "wrk is not installed (Debian package 'wrk')" >&2; exit 1; }
[ -f "$SIM_JAR" ] && [ -f "$GATEWAY_JAR" ] || ./mvnw -B -q -DskipTests package -pl gateway-app -am

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT
java -jar "$SIM_JAR" --port "$SIM_PORT" --model bench-model --perf-profile zero >/tmp/gateway-vs-direct-sim.log 2>&1 &
pids+=($!)
java -jar "$GATEWAY_JAR" --server.port="$API_PORT" --management.server.port="$MANAGEMENT_PORT" \
	--infergate.pools.bench.endpoints="http://127.0.0.1:${SIM_PORT}" \
	--logging.level.root=WARN >/tmp/gateway-vs-direct-gateway.log 2>&1 &
pids+=($!)
await_ready "http://127.0.0.1:${MANAGEMENT_PORT}/actuator/health/readiness" /tmp/gateway-vs-direct-gateway.log


wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/wrk/chat-completion.lua "http://127.0.0.1:${API_PORT}" >/dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/wrk/chat-completion.lua "http://127.0.0.1:${SIM_PORT}" >/dev/null

results=$(mktemp)
echo "round target requests/s p50 p99 non-2xx"
for round in $(seq 1 "$ROUNDS"); do
	for target in direct gateway; do
		port=$SIM_PORT; [ "$target" = gateway ] && port=$API_PORT
		line=$(wrk_leg "$target" "http://127.0.0.1:${port}")
		echo "$round $line" | tee -a "$results"
	done
done

python3 - "$results" <<'PY'
import statistics, sys
def ms(v):
    return float(v[:-2]) if v.endswith("ms") else float(v[:-2]) / 1000 if v.endswith("us") else float(v[:-1]) * 1000
rows = [line.split() for line in open(sys.argv[1])]
fig = {}
for _, target, rps, p50, p99, _errors in rows:
    fig.setdefault(target, {"rps": [], "p50": [], "p99": []})
    fig[target]["rps"].append(float(rps)); fig[target]["p50"].append(ms(p50)); fig[target]["p99"].append(ms(p99))
med = {t: {k: statistics.median(v) for k, v in f.items()} for t, f in fig.items()}
for t in ("direct", "gateway"):
    print(f"median {t}: {med[t]['rps']:.0f} requests/s, p50 {med[t]['p50']:.2f} ms, p99 {med[t]['p99']:.2f} ms")
d, g = med["direct"], med["gateway"]
print(f"gateway/direct: throughput {g['rps'] / d['rps']:.2f}x, p50 {g['p50'] / d['p50']:.2f}x, p99 {g['p99'] / d['p99']:.2f}x")
PY
