#!/usr/bin/env bash
# The hybrid tuning sweep of docs/routing-quality.md: replays the workloads under `hybrid` with its filters and the
# estimated-ttft in-flight price replaced through system properties (they override infergate-profiles.yml the way
# any property source does), one line per workload and variant.
# Build first: ./mvnw -B -q -pl bench -am -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=bench/target/routing-bench.jar
OUT=${OUT:-bench-out/tune}
WORKLOADS=${WORKLOADS:-shared-prefix multi-turn-chat no-sharing lora-mix}
run() {
	local filters=$1 price=$2
	for workload in $WORKLOADS; do
		java -Dinfergate.scheduling.profiles.hybrid.filters="$filters" \
			-Dinfergate.scheduling.plugins.estimated-ttft.in-flight-request-micros="$price" \
			-jar "$JAR" --workload "bench/workloads/$workload.yaml" --policies hybrid --out "$OUT/$workload" \
			2>/dev/null | grep '^| hybrid' | sed "s/^| hybrid/| [$filters] $price µs | $workload/"
	done
}
echo "| filters, in-flight price | workload | TTFT p50 ms | TTFT p90 ms | TTFT p99 ms | TPOT p50 ms | E2E p50 ms | E2E p99 ms | output tok/s | req/s | prefix hit | load CV | preempt | failed | sched µs p50 |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
VARIANTS=("ready,saturation 3000" "ready,saturation 1000" "ready,saturation 300" "ready 3000" "ready 1000" "ready 300"
	"ready,lora-affinity 3000" "ready,lora-affinity 1000" "ready,lora-affinity 300")
for variant in "${VARIANTS[@]}"; do
	run $variant
done
