#!/usr/bin/env bash
# What tracing costs the gateway, measured side by side in one run: three gateways in front of one zero-latency
# simulator, with tracing off (management.tracing.enabled=false), sampling 10% (the default) and sampling 100%,
# no span exporter (OTLP export is off by default). The same wrk load (non-streaming chat completions, 8 output
# tokens) goes to each in turn, ROUNDS times, starting each round with the next one, so all see the same machine
# noise and JIT drift. Prints requests/s and p50/p99 per round, then the medians and their ratios to tracing off.
# Environment: ROUNDS (5), CONNECTIONS (64), THREADS (2), DURATION (10s), WARMUP (40s, per gateway).
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/scripts/wrk-legs.sh

SIM_JAR=model-server-sim/target/model-server-sim.jar
GATEWAY_JAR=gateway-app/target/gateway-app.jar
SIM_PORT=${SIM_PORT:-18300}
ROUNDS=${ROUNDS:-5}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-40s}
CONFIGS=(off sampled-10 sampled-100)
declare -A API_PORT=([off]=18310 [sampled-10]=18320 [sampled-100]=18330)
declare -A TRACING=([off]="--management.tracing.enabled=false"
	[sampled-10]="--management.tracing.sampling.probability=0.1"
	[sampled-100]="--management.tracing.sampling.probability=1.0")

command -v wrk >/dev/null || { echo "wrk is not installed (Debian package 'wrk')" >&2; exit 1; }
[ -f "$SIM_JAR" ] && [ -f "$GATEWAY_JAR" ] || ./mvnw -B -q -DskipTests package -pl gateway-app -am

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT
java -jar "$SIM_JAR" --port "$SIM_PORT" --model bench-model --perf-profile zero >/tmp/tracing-overhead-sim.log 2>&1 &
pids+=($!)
for config in "${CONFIGS[@]}"; do
	port=${API_PORT[$config]}
	java -jar "$GATEWAY_JAR" --server.port="$port" --management.server.port=$((port + 1)) \
		--infergate.pools.bench.endpoints="http://127.0.0.1:${SIM_PORT}" ${TRACING[$config]} \
		--logging.level.root=WARN >"/tmp/tracing-overhead-$config.log" 2>&1 &
	pids+=($!)
done
for config in "${CONFIGS[@]}"; do
	await_ready "http://127.0.0.1:$((${API_PORT[$config]} + 1))/actuator/health/readiness" "/tmp/tracing-overhead-$config.log"
done


for config in "${CONFIGS[@]}"; do
	wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/wrk/chat-completion.lua \
		"http://127.0.0.1:${API_PORT[$config]}" >/dev/null
done

results=$(mktemp)
echo "round tracing requests/s p50 p99 non-2xx"
for round in $(seq 1 "$ROUNDS"); do
	for i in 0 1 2; do
		config=${CONFIGS[$(((round + i) % 3))]}
		line=$(wrk_leg "$config" "http://127.0.0.1:${API_PORT[$config]}")
		echo "$round $line" | tee -a "$results"
	done
done

python3 - "$results" "${CONFIGS[@]}" <<'PY'
import statistics, sys
def ms(v):
    return float(v[:-2]) if v.endswith("ms") else float(v[:-2]) / 1000 if v.endswith("us") else float(v[:-1]) * 1000
rows = [line.split() for line in open(sys.argv[1])]
configs = sys.argv[2:]
fig = {}
for _, config, rps, p50, p99, _errors in rows:
    fig.setdefault(config, {"rps": [], "p50": [], "p99": []})
    fig[config]["rps"].append(float(rps)); fig[config]["p50"].append(ms(p50)); fig[config]["p99"].append(ms(p99))
med = {c: {k: statistics.median(v) for k, v in f.items()} for c, f in fig.items()}
for c in configs:
    print(f"median {c}: {med[c]['rps']:.0f} requests/s, p50 {med[c]['p50']:.2f} ms, p99 {med[c]['p99']:.2f} ms")
base = med[configs[0]]
for c in configs[1:]:
    m = med[c]
    print(f"{c}/{configs[0]}: throughput {m['rps'] / base['rps']:.3f}x, p50 {m['p50'] / base['p50']:.2f}x, p99 {m['p99'] / base['p99']:.2f}x")
PY
