#!/usr/bin/env bash
# Reproduces docs/routing-quality.md: every shipped workload under every policy at the file's rate, then the rate
# ladders that locate round-robin's saturation. Results go to bench-out/<name>/ (results.json, report.md, charts).
# Build first: ./mvnw -B -q -pl bench -am -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=bench/target/routing-bench.jar
POLICIES=${POLICIES:-round-robin,least-request,load-only,default,prefix-only,chwbl,session,hybrid,oracle}
LADDER_POLICIES=${LADDER_POLICIES:-round-robin,least-request,hybrid,oracle}
OUT=${OUT:-bench-out}
for workload in shared-prefix multi-turn-chat no-sharing llm-d-prefix lora-mix heterogeneous; do
	java -jar "$JAR" --workload "bench/workloads/$workload.yaml" --policies "$POLICIES" --out "$OUT/$workload"
done
java -jar "$JAR" --workload bench/workloads/shared-prefix.yaml --policies "$LADDER_POLICIES" \
	--ladder 100,200,300,400,500,600,800,1600 --out "$OUT/shared-prefix-ladder"
java -jar "$JAR" --workload bench/workloads/multi-turn-chat.yaml --policies "$LADDER_POLICIES" \
	--ladder 300,400,500,600,800,1600 --out "$OUT/multi-turn-chat-ladder"
