#!/usr/bin/env bash
# Reruns the comparison behind the shipped default profile (docs/routing-quality.md, "The default profile"): every
# shipped profile on the routing workloads behind 1 gateway replica and behind 4 that share their dispatches, with
# the targets the default must meet and the verdict. Writes bench-out/compare-defaults/compare-defaults.md.
# Build first: ./mvnw -B -q -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=${JAR:-bench/target/routing-bench.jar}
OUT=${OUT:-bench-out/compare-defaults}
LOCK=${LOCK:-/tmp/infergate-cpu.lock}
if [ -e "$LOCK" ]; then
	exec flock "$LOCK" java -jar "$JAR" compare-defaults --out "$OUT" "$@"
fi
exec java -jar "$JAR" compare-defaults --out "$OUT" "$@"
