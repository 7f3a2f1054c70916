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

JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
OUT=${OUT:-/tmp/infergate-aot}
TRAIN_SECONDS=${TRAIN_SECONDS:-60}
GATEWAY_JAR=${GATEWAY_JAR:-gateway-app/target/gateway-app.jar}
PORT=19310
MANAGEMENT_PORT=19311

"$JAVA" -version 2>&1 | grep -q '"25' || { echo "$JAVA is not a JDK 25 (set JAVA)" >&2; exit 1; }
# the simulators and the gateway of gateway-rounds.sh start with the `java` on the PATH: this JDK 25
PATH="$(dirname "$JAVA"):$PATH"
source bench/scripts/lib/gateway-rounds.sh # start_sims, start_gateway, await_ready, wrk_post_script
[ -f "$GATEWAY_JAR" ] && [ -f "$SIM_JAR" ] || ./mvnw -B -q -DskipTests package -pl gateway-app -am

work=$(mktemp -d)
trap 'rounds_cleanup; rm -rf "$work"' EXIT

rm -rf "$OUT"
"$JAVA" -Djarmode=tools -jar "$GATEWAY_JAR" extract --destination "$OUT" >/dev/null

start_sims 19301 2
GATEWAY_JAVA_OPTS="-XX:AOTCacheOutput=$OUT/gateway.aot" \
	start_gateway "$OUT/gateway-app.jar" "$PORT" "$MANAGEMENT_PORT" "$SIM_URLS"
gateway=${rounds_pids[-1]}
await_ready "$MANAGEMENT_PORT"

stream='{"model":"bench-model","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"Count to sixty-four."}]}'
wrk_post_script "$work/stream.lua" "$stream"
echo "training: $TRAIN_SECONDS s of load on $OUT/gateway-app.jar ($("$JAVA" -version 2>&1 | head -1))"
wrk -t1 -c32 -d"$((TRAIN_SECONDS * 2 / 3))s" -s bench/wrk/chat-completion.lua "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|Non-2xx' || true
wrk -t1 -c32 -d"$((TRAIN_SECONDS / 3))s" -s "$work/stream.lua" "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|Non-2xx' || true

kill -TERM "$gateway"
# the JVM writes the cache as it exits (a child JVM assembles it): wait for both
for _ in $(seq 1 240); do
	kill -0 "$gateway" 2>/dev/null || break
	sleep 0.5
done
[ -s "$OUT/gateway.aot" ] || { echo "no AOT cache was written; the gateway's log:" >&2; tail -n 30 "/tmp/gateway-rounds-gateway-$PORT.log" >&2; exit 1; }
echo "wrote $OUT/gateway.aot ($(du -h "$OUT/gateway.aot" | cut -f1)); run: $JAVA -XX:AOTCache=$OUT/gateway.aot -jar $OUT/gateway-app.jar"
