#!/usr/bin/env bash
# Wall-clock HTTP throughput of one simulator with the zero perf profile (every engine step is free), so the
# figures are those of the HTTP layer and the engine loop: non-streaming chat completions, 8 output tokens.
# Starts the simulator jar, warms it up, runs wrk --latency, stops the simulator.
# Environment: PORT (18000), CONNECTIONS (64), THREADS (2), DURATION (15s), WARMUP (5s).
set -euo pipefail
cd "$(dirname "$0")/../.."

JAR=model-server-sim/target/model-server-sim.jar
PORT=${PORT:-18000}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-5s}
URL="http://127.0.0.1:${PORT}"

command -v wrk >/dev/null || { echo "wrk is not installed (Debian package 'wrk')" >&2; exit 1; }
[ -f "$JAR" ] || ./mvnw -B -q -pl model-server-sim -DskipTests package

java -jar "$JAR" --port "$PORT" --model bench-model --perf-profile zero &
SIM_PID=$!
trap 'kill "$SIM_PID" 2>/dev/null || true; wait "$SIM_PID" 2>/dev/null || true' EXIT

for _ in $(seq 1 100); do
	curl -sf "${URL}/health" >/dev/null && break
	sleep 0.1
done
curl -sf "${URL}/health" >/dev/null || { echo "simulator did not become healthy on ${URL}" >&2; exit 1; }

wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/wrk/chat-completion.lua "$URL" >/dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/wrk/chat-completion.lua "$URL"
