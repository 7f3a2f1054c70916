#!/usr/bin/env bash
# What traffic capture costs the proxy, side by side in one run: the same gateway jar with capture off (leg
# "infergate") and on (leg "infergate2": infergate.capture.enabled=true, every request sampled, files in a temporary
# directory), both in front of the same four simulators (BACKENDS=sim, --perf-profile zero), for non-streamed and
# streamed chat completions, in alternating rounds (bench/scripts/gateway-compare.sh does the rounds, the medians and
# the ratios; its environment applies). Afterwards it prints what the capture wrote: its files, their records and
# the capture's own counter of written, dropped and failed records.
# Environment: ROUNDS (6), WARMUP (60s), DURATION (15s), CONNECTIONS (32), MODES ("plain stream"), and the rest of
# gateway-compare.sh's.
set -euo pipefail
cd "$(dirname "$0")/../.."
capture_dir=$(mktemp -d /tmp/infergate-capture-overhead.XXXXXX)
trap 'rm -rf "$capture_dir"' EXIT
export BACKENDS=${BACKENDS:-sim}
export LEGS="infergate infergate2"
export ROUNDS=${ROUNDS:-6}
export INFERGATE2_ARGS="--infergate.capture.enabled=true --infergate.capture.directory=$capture_dir ${INFERGATE2_ARGS:-}"
bench/scripts/gateway-compare.sh
# gateway-compare.sh stops its gateways without waiting: wait for the capturing one to close its file
for _ in $(seq 1 60); do pgrep -f "$capture_dir" >/dev/null || break; sleep 1; done
records=0
for file in "$capture_dir"/*.jsonl.gz; do
	[ -e "$file" ] || continue
	count=$(zcat "$file" 2>/dev/null | wc -l)
	records=$((records + count))
	echo "capture file $(basename "$file"): $count records, $(stat -c %s "$file") bytes"
done
echo "capture records written in all: $records"
