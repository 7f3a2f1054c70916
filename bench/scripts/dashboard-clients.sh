#!/usr/bin/env bash
# What open dashboards cost the API: the same wrk load (non-streaming chat completions, 8 output tokens) through one
# gateway in front of PODS zero-latency simulators, in alternating rounds with no dashboard open and with CLIENTS
# dashboards open (each a curl reading the dashboard's live feed, /admin/api/feed, as a browser's EventSource does).
# Prints requests/s, p50 and p99 per round, the medians, their ratio and the spread between rounds, and checks that
# every feed kept receiving snapshots. Rounds go none-dashboards, then dashboards-none, and so on, so a drift of the
# machine weighs on both setups alike.
# Environment: CLIENTS (20), PODS (4), ROUNDS (6), CONNECTIONS (64), THREADS (2), DURATION (15s), WARMUP (60s).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-6}
WARMUP=${WARMUP:-60s}
. bench/scripts/lib/gateway-rounds.sh

GATEWAY_JAR=gateway-app/target/gateway-app.jar
CLIENTS=${CLIENTS:-20}
PODS=${PODS:-4}
API_PORT=${API_PORT:-18380}
MANAGEMENT_PORT=${MANAGEMENT_PORT:-18381}
[ -f "$SIM_JAR" ] && [ -f "$GATEWAY_JAR" ] || ./mvnw -B -q -DskipTests package -pl gateway-app -am

start_sims 18300 "$PODS"
start_gateway "$GATEWAY_JAR" "$API_PORT" "$MANAGEMENT_PORT" "$SIM_URLS"
await_ready "$MANAGEMENT_PORT"
warm_up "$API_PORT"

feeds=$(mktemp -d)
open_dashboards() { # ROUND
	for i in $(seq 1 "$CLIENTS"); do
		curl -sN -u "admin:${BENCH_PASSWORD}" "http://127.0.0.1:${MANAGEMENT_PORT}/admin/api/feed" \
			>"$feeds/round-$1-client-$i" 2>/dev/null &
		dashboard_pids+=($!)
	done
	sleep 2 # every dashboard connected and past its first snapshot
}
close_dashboards() { # ROUND: stops the clients and checks each one kept receiving snapshots
	for p in "${dashboard_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait "${dashboard_pids[@]}" 2>/dev/null || true
	dashboard_pids=()
	for f in "$feeds"/round-"$1"-client-*; do
		snapshots=$(grep -c '^event: snapshot' "$f" || true)
		[ "$snapshots" -ge 20 ] || { echo "dashboard $f received only $snapshots snapshots" >&2; exit 1; }
	done
}

dashboard_pids=()
results=$(mktemp)
echo "round setup requests/s p50 p99 non-2xx"
with_dashboards() { # ROUND
	open_dashboards "$1"
	echo "$1 $(wrk_round "dashboards-$CLIENTS" "$API_PORT")" | tee -a "$results"
	close_dashboards "$1"
}
for round in $(seq 1 "$ROUNDS"); do
	if [ $((round % 2)) -eq 1 ]; then
		echo "$round $(wrk_round none "$API_PORT")" | tee -a "$results"
		with_dashboards "$round"
	else
		with_dashboards "$round"
		echo "$round $(wrk_round none "$API_PORT")" | tee -a "$results"
	fi
done
echo "each open dashboard received $(grep -c '^event: snapshot' "$feeds/round-1-client-1") snapshots in round 1"
summarize "$results" none "dashboards-$CLIENTS"
rm -rf "$feeds"
