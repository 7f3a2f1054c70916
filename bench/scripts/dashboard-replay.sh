#!/usr/bin/env bash
# What a dashboard replay running in the background costs the API: the same wrk load (non-streaming chat completions,
# 8 output tokens) through one gateway in front of PODS zero-latency simulators, with the traffic capture on in both
# setups, in alternating rounds with no replay running and with a dashboard replay of CHOICES profiles running the
# whole round (a new run starts whenever one ends). The replay reads the last WINDOW_MS of the warm-up's capture
# (at most infergate.management.dashboard.replay.max-requests routed requests) and keeps to
# infergate.management.dashboard.replay.cpu-share (CPU_SHARE) of one core. Prints requests/s, p50 and p99 per round,
# the medians, their ratio and the spread between rounds, the requests each replay round replayed, and the gateway's
# CPU while idle with and without a replay running (the replay's own share of a core: a run is a process of the
# gateway's, counted with it).
# Environment: PODS (4), ROUNDS (6), CONNECTIONS (64), THREADS (2), DURATION (15s), WARMUP (60s), WINDOW_MS (10000),
# CPU_SHARE (0.5), CHOICES (default,llm-d,round-robin,least-request).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-6}
WARMUP=${WARMUP:-60s}
. bench/scripts/lib/gateway-rounds.sh

GATEWAY_JAR=gateway-app/target/gateway-app.jar
PODS=${PODS:-4}
API_PORT=${API_PORT:-18580}
MANAGEMENT_PORT=${MANAGEMENT_PORT:-18581}
WINDOW_MS=${WINDOW_MS:-10000}
CPU_SHARE=${CPU_SHARE:-0.5}
CHOICES=${CHOICES:-default,llm-d,round-robin,least-request}
[ -f "$SIM_JAR" ] && [ -f "$GATEWAY_JAR" ] || ./mvnw -B -q -DskipTests package -pl gateway-app -am

captures=$(mktemp -d)
work=$(mktemp -d)
trap 'rounds_cleanup; rm -rf "$captures" "$work"' EXIT
start_sims 18500 "$PODS"
start_gateway "$GATEWAY_JAR" "$API_PORT" "$MANAGEMENT_PORT" "$SIM_URLS" --infergate.capture.enabled=true \
	--infergate.capture.directory="$captures" --infergate.management.dashboard.replay.cpu-share="$CPU_SHARE"
gateway_pid=${rounds_pids[-1]}
await_ready "$MANAGEMENT_PORT"
warm_up "$API_PORT"

admin() { # PATH [BODY]: the dashboard's API
	if [ $# -gt 1 ]; then
		curl -sf -u "admin:${BENCH_PASSWORD}" -H 'X-Infergate-Dashboard: 1' -H 'Content-Type: application/json' \
			-d "$2" "http://127.0.0.1:${MANAGEMENT_PORT}$1"
	else
		curl -sf -u "admin:${BENCH_PASSWORD}" "http://127.0.0.1:${MANAGEMENT_PORT}$1"
	fi
}
json() { python3 -c "import json, sys; print($1)" 2>/dev/null; }
field() { grep -o "\"$1\":\"\\?[a-z0-9]*" | head -1 | sed 's/.*:"\?//'; } # NAME: a run's top-level field

# the window: the last WINDOW_MS of the warm-up, its JIT warm
sleep 2
last_ms=$(admin /admin/api/replay/captures | json 'max(f["lastArrivalMs"] for f in json.load(sys.stdin)["captures"] if f["routedRecords"])')
request=$(python3 -c "import json; print(json.dumps({'fromMs': $last_ms + 1 - $WINDOW_MS, 'toMs': $last_ms + 1,
	'choices': [{'profile': p} for p in '$CHOICES'.split(',')]}))")

# replay_loop FILE: keeps a replay running until killed, starting a run whenever the last one ended; appends each
# finished run's state and requests to FILE
replay_loop() {
	local id state
	while true; do
		id=$(admin /admin/api/replay/runs "$request" | json 'json.load(sys.stdin)["id"]')
		while true; do
			# every 2 s, without a python3 per poll: the script's own CPU is not to weigh on the rounds
			sleep 2
			state=$(admin "/admin/api/replay/runs/$id" | field state)" $(admin "/admin/api/replay/runs/$id" | field requestsDone)"
			case $state in reading* | replaying*) ;; *) echo "$state" >>"$1"; break ;; esac
		done
		case $state in done*) ;; *) echo "replay run $id ended $state" >&2; exit 1 ;; esac
	done
}
replay_pid=
start_replay() { # ROUND
	replay_loop "$work/runs-$1" &
	replay_pid=$!
	# past the window's copy and reading, into the replays themselves
	for _ in $(seq 1 120); do
		[ "$(admin "/admin/api/replay/runs" | json 'json.load(sys.stdin)[0]["state"]')" = replaying ] && return 0
		sleep 0.5
	done
	echo "no replay reached its replaying state" >&2
	exit 1
}
stop_replay() { # ROUND: stops the loop and the run in progress; prints the requests the round replayed
	local id done_in_runs
	kill "$replay_pid" 2>/dev/null || true
	wait "$replay_pid" 2>/dev/null || true
	id=$(admin /admin/api/replay/runs | json 'json.load(sys.stdin)[0]["id"]')
	done_in_runs=$(awk '{ sum += $2 } END { print sum + 0 }' "$work/runs-$1" 2>/dev/null || echo 0)
	echo "$done_in_runs + $(admin "/admin/api/replay/runs/$id" | json 'json.load(sys.stdin)["requestsDone"]')" | bc \
		>"$work/replayed-$1"
	admin "/admin/api/replay/runs/$id/cancel" '{}' >/dev/null
	for _ in $(seq 1 60); do
		case $(admin "/admin/api/replay/runs/$id" | json 'json.load(sys.stdin)["state"]') in done | cancelled | failed) return 0 ;; esac
		sleep 0.5
	done
}

# the replay's own CPU, the gateway idle: 10 s without a replay, then 10 s with one
ticks_per_second=$(getconf CLK_TCK)
# the gateway's CPU ticks with its replay processes': those that ended (reaped) and those running
tree_ticks() { # PID
	local total child
	total=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat")
	for child in $(pgrep -P "$1"); do
		total=$((total + $(awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null || echo 0)))
	done
	echo "$total"
}
idle_cpu() { # SECONDS: the gateway's CPU over that many seconds, its replay processes' included, in cores
	local before after
	before=$(tree_ticks "$gateway_pid")
	sleep "$1"
	after=$(tree_ticks "$gateway_pid")
	echo "scale=3; ($after - $before) / $ticks_per_second / $1" | bc
}
idle_without=$(idle_cpu 10)
start_replay idle
idle_with=$(idle_cpu 10)
stop_replay idle

results=$(mktemp)
echo "round setup requests/s p50 p99 non-2xx"
with_replay() { # ROUND
	start_replay "$1"
	echo "$1 $(wrk_round replay "$API_PORT")" | tee -a "$results"
	stop_replay "$1"
	echo "  (round $1: the replay replayed $(cat "$work/replayed-$1") requests during it)"
}
for round in $(seq 1 "$ROUNDS"); do
	if [ $((round % 2)) -eq 1 ]; then
		echo "$round $(wrk_round none "$API_PORT")" | tee -a "$results"
		with_replay "$round"
	else
		with_replay "$round"
		echo "$round $(wrk_round none "$API_PORT")" | tee -a "$results"
	fi
done
echo "the gateway idle: ${idle_without} cores without a replay, ${idle_with} with one (cpu-share ${CPU_SHARE})"
echo "a run: $(admin /admin/api/replay/runs | json 'json.load(sys.stdin)[-1]["trace"]'), choices ${CHOICES}"
summarize "$results" none replay
