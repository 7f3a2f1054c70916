#!/usr/bin/env bash
# Two builds of the gateway side by side: the same wrk load (non-streaming chat completions, 8 output tokens) on
# gateway A and gateway B, both in front of the same PODS zero-latency simulators, in alternating rounds. For
# instance A = a build of the parent commit, B = this one, to measure what a change costs the API.
# Usage: bench/scripts/gateway-a-b.sh A.jar B.jar
# Rounds go A-B, then B-A, and so on, so a drift of the machine weighs on both alike.
# Environment: PODS (4), ROUNDS (6), CONNECTIONS (64), THREADS (2), DURATION (15s), WARMUP (60s, each gateway);
# A_ARGS and B_ARGS, space-separated arguments for gateway A and B (say, the same model with and without a price).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-6}
WARMUP=${WARMUP:-60s}
. bench/scripts/lib/gateway-rounds.sh

[ $# -eq 2 ] || { echo "usage: $0 A.jar B.jar" >&2; exit 2; }
PODS=${PODS:-4}

start_sims 18400 "$PODS"
read -r -a a_args <<<"${A_ARGS:-}"
read -r -a b_args <<<"${B_ARGS:-}"
start_gateway "$1" 18480 18481 "$SIM_URLS" "${a_args[@]}"
start_gateway "$2" 18490 18491 "$SIM_URLS" "${b_args[@]}"
await_ready 18481
await_ready 18491
warm_up 18480
warm_up 18490

results=$(mktemp)
echo "round gateway requests/s p50 p99 non-2xx"
for round in $(seq 1 "$ROUNDS"); do
	if [ $((round % 2)) -eq 1 ]; then order="A:18480 B:18490"; else order="B:18490 A:18480"; fi
	for gateway in $order; do
		echo "$round $(wrk_round "${gateway%%:*}" "${gateway##*:}")" | tee -a "$results"
	done
done
summarize "$results" A B
