#!/usr/bin/env bash
# How the usage ledger writes under load: one gateway, its ledger on (the embedded H2 file database in a temporary
# directory, or LEDGER_URL with LEDGER_USER and LEDGER_PASSWORD, say a PostgreSQL), in front of PODS zero-latency
# simulators; wrk drives non-streamed chat completions at full speed for DURATION, then the script reads the
# ledger's own counters from /actuator/prometheus and prints requests/s, batches written per second, rows per batch,
# failed batches, the write time per batch, and the rows still waiting; and the requests the usage API added over the
# run beside those wrk counted.
# Usage: bench/scripts/ledger-batches.sh
# Environment: PODS (4), CONNECTIONS (64), THREADS (2), DURATION (60s), WARMUP (30s), LEDGER_URL, LEDGER_USER,
# LEDGER_PASSWORD.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-60s}
WARMUP=${WARMUP:-30s}
. bench/scripts/lib/gateway-rounds.sh

PODS=${PODS:-4}
GATEWAY_JAR=${GATEWAY_JAR:-gateway-app/target/gateway-app.jar}
work=$(mktemp -d)
LEDGER_URL=${LEDGER_URL:-jdbc:h2:file:$work/ledger}

start_sims 18500 "$PODS"
start_gateway "$GATEWAY_JAR" 18580 18581 "$SIM_URLS" --spring.datasource.url="$LEDGER_URL" \
	--spring.datasource.username="${LEDGER_USER:-sa}" --spring.datasource.password="${LEDGER_PASSWORD:-}"
await_ready 18581
warm_up 18580

ledger_requests() {
	curl -fsS -u "admin:$BENCH_PASSWORD" "http://127.0.0.1:18581/admin/api/usage?group-by=" \
		| python3 -c 'import json,sys; rows=json.load(sys.stdin)["rows"]; print(sum(r["requests"] for r in rows))'
}
metric() { # NAME [LABEL_MATCH]: the sum of the series' values
	curl -fsS -u "admin:$BENCH_PASSWORD" http://127.0.0.1:18581/actuator/prometheus \
		| awk -v name="$1" -v match_="${2:-}" '$1 ~ "^"name"(\\{|$)" && index($1, match_) { sum += $2 } END { printf "%.6f\n", sum + 0 }'
}
sleep 2
ledger_before=$(ledger_requests)
batches_before=$(metric infergate_usage_ledger_batches_total 'outcome="written"')
seconds_before=$(metric infergate_usage_ledger_write_seconds_sum)
requests_before=$(metric infergate_usage_ledger_write_seconds_count)
start=$(date +%s.%N)
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s bench/wrk/chat-completion.lua "http://127.0.0.1:18580" >"$work/wrk.out"
# a last flush interval for the sums of the final second
sleep 2
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
batches=$(echo "$(metric infergate_usage_ledger_batches_total 'outcome="written"') - $batches_before" | bc)
failed=$(metric infergate_usage_ledger_batches_total 'outcome="failed"')
write_seconds=$(echo "$(metric infergate_usage_ledger_write_seconds_sum) - $seconds_before" | bc)
writes=$(echo "$(metric infergate_usage_ledger_write_seconds_count) - $requests_before" | bc)
pending=$(metric infergate_usage_ledger_pending_rows)
dropped=$(metric infergate_usage_ledger_rows_dropped_total)
total=$(($(ledger_requests) - ledger_before))
python3 - "$work/wrk.out" "$elapsed" "$batches" "$failed" "$write_seconds" "$writes" "$pending" "$dropped" "$total" <<'PY'
import re, sys
wrk = open(sys.argv[1]).read()
requests = int(re.search(r"(\d+) requests in", wrk).group(1))
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", wrk).group(1))
elapsed, batches, failed, write_s, writes, pending, dropped, total = (float(v) for v in sys.argv[2:])
print(f"wrk: {requests} requests, {rps:.0f} requests/s")
print(f"ledger: {batches:.0f} batches written in {elapsed:.1f} s = {batches / elapsed:.2f} per second; "
      f"failed {failed:.0f}; {write_s / max(1, writes) * 1000:.1f} ms per write; {pending:.0f} rows waiting, "
      f"{dropped:.0f} dropped")
print(f"usage API: {total:.0f} requests added to the ledger during the run; wrk counted {requests} answered "
      f"(it stops with up to its connections' requests in flight, which the ledger counts too)")
PY
rm -rf "$work"
