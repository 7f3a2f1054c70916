#!/usr/bin/env bash
# Reproduces docs/routing-quality.md, "Priority the engines honour": least-request's capacity without admission (the
# plateau of the sustained request rate), then each admission workload at half and twice that capacity with FIFO and
# priority-scheduling engines, flow control on and off, and the same with the concurrency detector at 240 requests
# per endpoint. Every run measures after 8,000 warm-up requests, past the cold start. Results go to
# bench-out/<name>/ (results.json, report.md, charts).
# Build first: ./mvnw -B -q -pl bench -am -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=bench/target/routing-bench.jar
OUT=${OUT:-bench-out}
WARMUP=${WARMUP:-8000}
RATES=${RATES:-160,641}
java -jar "$JAR" --workload bench/workloads/overload-priority.yaml --policies least-request --flow-control false \
	--warmup "$WARMUP" --ladder 200,300,400,500,600 --out "$OUT/engine-priority-capacity"
for workload in overload-priority noisy-neighbour noisy-neighbour-weighted; do
	for engines in fcfs priority; do
		for flow_control in true false; do
			java -jar "$JAR" --workload "bench/workloads/$workload.yaml" --policies least-request --warmup "$WARMUP" \
				--engine-scheduling "$engines" --flow-control "$flow_control" --ladder "$RATES" \
				--out "$OUT/engine-priority-$workload-$engines-flow-control-$flow_control"
		done
		java -Dinfergate.flow-control.detector=concurrency -Dinfergate.flow-control.max-requests-per-endpoint=240 \
			-jar "$JAR" --workload "bench/workloads/$workload.yaml" --policies least-request --warmup "$WARMUP" \
			--engine-scheduling "$engines" --flow-control true --ladder "$RATES" \
			--out "$OUT/engine-priority-$workload-$engines-concurrency-240"
	done
done
