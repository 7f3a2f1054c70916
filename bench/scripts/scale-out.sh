#!/usr/bin/env bash
# Reproduces docs/scale-out.md: every shipped workload behind 1, 2, 4 and 8 gateway replicas under every policy
# (the shipped profiles, the bench's engine-load variants and oracle, and the profiles that read the prefix index with
# dispatch sharing), the propagation-delay sweep of dispatch sharing, and the live replay through gateway jars.
# Results go to bench-out/scale-out/<name>/. Each command holds the shared CPU lock when one exists.
# Build first: ./mvnw -B -q -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=${JAR:-bench/target/routing-bench.jar}
OUT=${OUT:-bench-out/scale-out}
LOCK=${LOCK:-/tmp/infergate-cpu.lock}
POLICIES=${POLICIES:-round-robin,random,least-request,least-request-engine-load,load-only,llm-d,llm-d+dispatch-sharing,precise,prefix-only,prefix-only+dispatch-sharing,chwbl,chwbl-engine-load,session,hybrid,hybrid+dispatch-sharing,hybrid-engine-load,hybrid-engine-load+dispatch-sharing,oracle}
WORKLOADS=${WORKLOADS:-shared-prefix multi-turn-chat no-sharing llm-d-prefix lora-mix heterogeneous shared-prefix-live shared-prefix-10k}
locked() {
	if [ -e "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi
}
for workload in $WORKLOADS; do
	locked java -jar "$JAR" --workload "bench/workloads/$workload.yaml" --policies "$POLICIES" --gateways 1,2,4,8 \
		--out "$OUT/$workload"
done
if [ -z "${SKIP_DELAYS:-}" ]; then
	for workload in shared-prefix multi-turn-chat; do
		for delay in 0 1 5 20 50; do
			locked java -jar "$JAR" --workload "bench/workloads/$workload.yaml" --policies hybrid+dispatch-sharing \
				--gateways 4 --sharing-delay-ms "$delay" --out "$OUT/delay-$workload-$delay"
		done
	done
fi
if [ -z "${SKIP_LIVE:-}" ]; then
	locked java -jar "$JAR" --live --workload bench/workloads/shared-prefix-live.yaml \
		--policies hybrid+dispatch-sharing,hybrid,precise,chwbl-engine-load --out "$OUT/live"
fi
