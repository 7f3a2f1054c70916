#!/usr/bin/env bash
# Reproduces docs/routing-quality.md: every shipped workload under every policy at the file's rate, then the rate
# ladders that locate round-robin's saturation, then flow control under overload (least-request's capacity without
# admission, and each admission workload at half and twice that capacity with flow control on and off). Results go
# to bench-out/<name>/ (results.json, report.md, charts).
# Build first: ./mvnw -B -q -pl bench -am -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=bench/target/routing-bench.jar
POLICIES=${POLICIES:-round-robin,least-request,load-only,llm-d,prefix-only,chwbl,session,hybrid,oracle}
LADDER_POLICIES=${LADDER_POLICIES:-round-robin,least-request,hybrid,oracle}
OUT=${OUT:-bench-out}
for workload in shared-prefix multi-turn-chat no-sharing llm-d-prefix lora-mix heterogeneous; do
	java -jar "$JAR" --workload "bench/workloads/$workload.yaml" --policies "$POLICIES" --out "$OUT/$workload"
done
java -jar "$JAR" --workload bench/workloads/shared-prefix.yaml --policies "$LADDER_POLICIES" \
	--ladder 100,200,300,400,500,600,800,1600 --out "$OUT/shared-prefix-ladder"
java -jar "$JAR" --workload bench/workloads/multi-turn-chat.yaml --policies "$LADDER_POLICIES" \
	--ladder 300,400,500,600,800,1600 --out "$OUT/multi-turn-chat-ladder"
java -jar "$JAR" --workload bench/workloads/overload-priority.yaml --policies least-request --flow-control false \
	--ladder 100,200,300,400,500,600,800 --out "$OUT/capacity-ladder"
for workload in overload-priority noisy-neighbour noisy-neighbour-weighted; do
	for flow_control in true false; do
		java -jar "$JAR" --workload "bench/workloads/$workload.yaml" --policies least-request \
			--flow-control "$flow_control" --ladder 153,612 --out "$OUT/$workload-flow-control-$flow_control"
	done
done
