#!/usr/bin/env bash
# Builds a JDK 25 AOT cache of the gateway for a faster warm-up (JEP 483: classes loaded and linked ahead of time;
# JEP 515: the JIT's method profiles, so hot methods compile early), by one training run under load.
#
#   bench/scripts/aot-cache.sh                       # writes OUT/gateway-app.jar, OUT/lib/ and OUT/gateway.aot
#   $JAVA -XX:AOTCache=OUT/gateway.aot -jar OUT/gateway-app.jar ...
#
# An AOT cache holds only classes loaded from plain jars on the class path, not from the jars nested in the fat jar,
# so the fat jar is first extracted (Spring Boot's `-Djarmode=tools extract`). The training run is the extracted
# gateway with -XX:AOTCacheOutput in front of two zero-latency simulators, driven by wrk for TRAIN_SECONDS with
# non-streamed and streamed chat completions; when it stops (SIGTERM: a normal JVM exit) the JVM writes the cache.
# The cache is only valid for the same JDK and the same jars: rebuild it with the jar.
# Environment: JAVA (Temurin 25), OUT (/tmp/infergate-aot), TRAIN_SECONDS (60), GATEWAY_JAR.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/scripts/wrk-legs.sh # await_ready, wrk_post_script

JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
OUT=${OUT:-/tmp/infergate-aot}
TRAIN_SECONDS=${TRAIN_SECONDS:-60}
GATEWAY_JAR=${GATEWAY_JAR:-gateway-app/target/gateway-app.jar}
SIM_JAR=model-server-sim/target/model-server-sim.jar
SIM_PORTS=(19301 19302)
PORT=19310
MANAGEMENT_PORT=19311

"$JAVA" -version 2>&1 | grep -q '"25' || { echo "$JAVA is not a JDK 25 (set JAVA)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is not installed (Debian package 'wrk')" >&2; exit 1; }
[ -f "$GATEWAY_JAR" ] && [ -f "$SIM_JAR" ] || ./mvnw -B -q -DskipTests package -pl gateway-app -am

work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT

rm -rf "$OUT"
"$JAVA" -Djarmode=tools -jar "$GATEWAY_JAR" extract --destination "$OUT" >/dev/null

endpoints=""
for port in "${SIM_PORTS[@]}"; do
	java -jar "$SIM_JAR" --port "$port" --model bench-model --perf-profile zero >"$work/sim-$port.log" 2>&1 &
	pids+=($!)
	endpoints+="http://127.0.0.1:$port,"
done
for port in "${SIM_PORTS[@]}"; do await_ready "http://127.0.0.1:$port/health" "$work/sim-$port.log"; done

"$JAVA" -XX:AOTCacheOutput="$OUT/gateway.aot" -jar "$OUT/gateway-app.jar" --server.port=$PORT \
	--management.server.port=$MANAGEMENT_PORT --infergate.pools.bench.endpoints="${endpoints%,}" \
	--logging.level.root=WARN >"$work/gateway.log" 2>&1 &
gateway=$!
pids+=($gateway)
await_ready "http://127.0.0.1:$MANAGEMENT_PORT/actuator/health/readiness" "$work/gateway.log"

chat='{"model":"bench-model","max_tokens":8,"messages":[{"role":"user","content":"Name three prime numbers."}]}'
stream='{"model":"bench-model","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"Count to sixty-four."}]}'
wrk_post_script "$work/plain.lua" "$chat"
wrk_post_script "$work/stream.lua" "$stream"
echo "training: $TRAIN_SECONDS s of load on $OUT/gateway-app.jar ($("$JAVA" -version 2>&1 | head -1))"
wrk -t1 -c32 -d"$((TRAIN_SECONDS * 2 / 3))s" -s "$work/plain.lua" "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|Non-2xx' || true
wrk -t1 -c32 -d"$((TRAIN_SECONDS / 3))s" -s "$work/stream.lua" "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|Non-2xx' || true

kill -TERM "$gateway"
# the JVM writes the cache as it exits (a child JVM assembles it): wait for both
for _ in $(seq 1 240); do
	kill -0 "$gateway" 2>/dev/null || break
	sleep 0.5
done
[ -s "$OUT/gateway.aot" ] || { echo "no AOT cache was written; the gateway's log:" >&2; tail -n 30 "$work/gateway.log" >&2; exit 1; }
echo "wrote $OUT/gateway.aot ($(du -h "$OUT/gateway.aot" | cut -f1)); run: $JAVA -XX:AOTCache=$OUT/gateway.aot -jar $OUT/gateway-app.jar"
