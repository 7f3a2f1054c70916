#!/bin/sh
# Records the gateway's AOT cache at image build time (see the Dockerfile): one training run of the gateway with
# -XX:AOTCacheOutput (JDK 25, JEP 514), in demo mode, with its own warm-up before start (infergate.warmup.duration,
# the first argument, 30s unless given), so the run loads the classes of start-up and of the request path and the
# JIT profiles the request path under load. Once the gateway has started it is stopped (SIGTERM, a normal exit),
# and the exiting JVM writes the cache to /app/gateway/gateway.aot. A JRE without AOT caches (before 25) is skipped.
set -e
cache=/app/gateway/gateway.aot
warmup=${1:-30s}

if ! java -XX:-UsePerfData -XX:+PrintFlagsFinal -version 2>/dev/null | grep -q ' AOTCacheOutput '; then
	echo "aot-training: $(java -XX:-UsePerfData -version 2>&1 | head -n 1) has no AOT cache (JDK 25 or later); none recorded"
	exit 0
fi

# the run's files (its log, Spring Boot's log file, whatever else the JVM writes to its temporary directory) stay
# out of the image
work=$(mktemp -d)
log=$work/training.log
java -XX:AOTCacheOutput="$cache" -XX:-UsePerfData -Djava.io.tmpdir="$work" -jar /app/gateway/gateway-app.jar \
	--infergate.warmup.duration="$warmup" --server.address=127.0.0.1 --management.server.address=127.0.0.1 \
	--spring.datasource.url="jdbc:h2:file:$work/ledger" \
	>"$log" 2>&1 &
pid=$!
waited=0
until grep -q 'Started InfergateGatewayApplication' "$log"; do
	if ! kill -0 "$pid" 2>/dev/null || [ "$waited" -ge 600 ]; then
		echo "aot-training: the gateway did not start; its log:" >&2
		tail -n 40 "$log" >&2
		kill "$pid" 2>/dev/null || true
		exit 1
	fi
	sleep 1
	waited=$((waited + 1))
done
kill -TERM "$pid"
wait "$pid" || true
if [ ! -s "$cache" ]; then
	echo "aot-training: no AOT cache was written; the gateway's log:" >&2
	tail -n 40 "$log" >&2
	exit 1
fi
chmod 644 "$cache"
echo "aot-training: $(grep -o 'Warm-up: [0-9]* requests ([0-9]* failed)' "$log"); wrote $cache ($(du -k "$cache" | cut -f1) KiB) after ${waited} s"
rm -rf "$work"
