#!/usr/bin/env bash
# What API keys and rate limits cost per request, end to end, measured side by side in one run: three gateways in
# front of one zero-latency simulator, the same wrk load (non-streaming chat completions with an API key, 8 output
# tokens) on each in turn, ROUNDS times, so all three see the same machine noise:
#   off    - no keys, no limits (the gateway as it was before them; the key header is ignored)
#   memory - keys on, limits on key, tenant and model (RPM, TPM, max-parallel) in this replica's memory
#   redis  - the same limits shared through a redis-server on loopback
# Limits are high enough that nothing is refused: every request pays the whole check, reserve and settle.
# Each gateway gets WARMUP of load first (JIT). Prints requests/s, p50 and p99 per round, then medians, the ratios
# to "off", the p50 each store adds, the Redis calls per request and the time Redis spent running them (from its own
# command counts), and the CPU each request costs the gateway and, for the Redis store, redis-server (from /proc,
# utime + stime over the rounds).
# Environment: ROUNDS (5), CONNECTIONS (32), THREADS (2), DURATION (20s), WARMUP (60s).
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/scripts/wrk-legs.sh # cpu_ticks

SIM_JAR=model-server-sim/target/model-server-sim.jar
GATEWAY_JAR=gateway-app/target/gateway-app.jar
SIM_PORT=${SIM_PORT:-18200}
REDIS_PORT=${REDIS_PORT:-18279}
OFF_PORT=${OFF_PORT:-18280}
MEMORY_PORT=${MEMORY_PORT:-18282}
REDIS_GATEWAY_PORT=${REDIS_GATEWAY_PORT:-18284}
ROUNDS=${ROUNDS:-5}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-2}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-60s}
export API_KEY=sk-bench-overhead

command -v wrk >/dev/null || { echo "wrk is not installed (Debian package 'wrk')" >&2; exit 1; }
command -v redis-server >/dev/null || { echo "redis-server is not installed (Debian package 'redis-server')" >&2; exit 1; }
[ -f "$SIM_JAR" ] && [ -f "$GATEWAY_JAR" ] || ./mvnw -B -q -DskipTests package -pl gateway-app -am

work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT

cat >"$work/limits.yml" <<YAML
infergate:
  auth:
    enabled: true
    keys:
      bench:
        sha256: $(printf '%s' "$API_KEY" | java -jar "$GATEWAY_JAR" hash-api-key)
        tenant: bench
        limits: {rpm: 1000000000, tpm: 1000000000000, max-parallel: 100000}
    tenants:
      bench: {limits: {rpm: 1000000000, tpm: 1000000000000}}
  models:
    bench-model: {pool: bench, limits: {rpm: 1000000000, tpm: 1000000000000}}
YAML

redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no >"$work/redis.log" 2>&1 &
redis_pid=$!
pids+=($redis_pid)
declare -A gateway_pid
java -jar "$SIM_JAR" --port "$SIM_PORT" --model bench-model --perf-profile zero >"$work/sim.log" 2>&1 &
pids+=($!)
start_gateway() { # name api-port extra-args...
	local name=$1 port=$2
	shift 2
	java -jar "$GATEWAY_JAR" --server.port="$port" --management.server.port="$((port + 1))" \
		--infergate.pools.bench.endpoints="http://127.0.0.1:${SIM_PORT}" --logging.level.root=WARN "$@" \
		>"$work/gateway-$name.log" 2>&1 &
	pids+=($!)
	gateway_pid[$name]=$!
}
start_gateway off "$OFF_PORT"
start_gateway memory "$MEMORY_PORT" --spring.config.additional-location="file:$work/limits.yml"
start_gateway redis "$REDIS_GATEWAY_PORT" --spring.config.additional-location="file:$work/limits.yml" \
	--infergate.rate-limits.store=redis --infergate.rate-limits.redis-url="redis://127.0.0.1:${REDIS_PORT}"
for port in "$OFF_PORT" "$MEMORY_PORT" "$REDIS_GATEWAY_PORT"; do
	for _ in $(seq 1 240); do
		curl -sf "http://127.0.0.1:$((port + 1))/actuator/health/readiness" >/dev/null && break
		sleep 0.5
	done
	curl -sf "http://127.0.0.1:$((port + 1))/actuator/health/readiness" >/dev/null \
		|| { echo "gateway on $port not ready; logs in $work" >&2; cat "$work"/gateway-*.log >&2; exit 1; }
done

run() { # name port
	local gateway_before redis_before
	gateway_before=$(cpu_ticks "${gateway_pid[$1]}")
	redis_before=$(cpu_ticks "$redis_pid")
	wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/wrk/chat-completion-with-key.lua \
		"http://127.0.0.1:$2" >"$work/wrk.out"
	echo "$(($(cpu_ticks "${gateway_pid[$1]}") - gateway_before)) $(($(cpu_ticks "$redis_pid") - redis_before))" \
		>"$work/ticks"
	awk -v name="$1" -v ticks="$(cat "$work/ticks")" -v hz="$(getconf CLK_TCK)" '
			/requests in/ { total = $1 }
			/Requests\/sec/ { rps = $2 }
			$1 == "50%" { p50 = $2 }
			$1 == "99%" { p99 = $2 }
			/Non-2xx/ { errors = $NF }
			END { split(ticks, t, " ")
				printf "%s %s %s %s %s %s %.1f %.1f\n", name, rps, p50, p99, (errors == "" ? 0 : errors), total,
					t[1] / hz * 1e6 / total, t[2] / hz * 1e6 / total }' "$work/wrk.out"
}

for port in "$OFF_PORT" "$MEMORY_PORT" "$REDIS_GATEWAY_PORT"; do
	wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/wrk/chat-completion-with-key.lua "http://127.0.0.1:${port}" >/dev/null
done

redis-cli -p "$REDIS_PORT" config resetstat >/dev/null
results="$work/results"
echo "round target requests/s p50 p99 non-2xx requests gateway_cpu_us/request redis_cpu_us/request"
for round in $(seq 1 "$ROUNDS"); do
	for target in off memory redis; do
		case $target in off) port=$OFF_PORT ;; memory) port=$MEMORY_PORT ;; redis) port=$REDIS_GATEWAY_PORT ;; esac
		line=$(run "$target" "$port")
		echo "$round $line" | tee -a "$results"
	done
done
# calls and the microseconds Redis spent running them (its own command counts: calls=N,usec=M)
read -r redis_calls redis_script_usec < <(redis-cli -p "$REDIS_PORT" info commandstats | tr -d '\r' \
	| awk -F'[:=,]' '/^cmdstat_(evalsha|eval):/ { n += $3; u += $5 } END { print n + 0, u + 0 }')

python3 - "$results" "$redis_calls" "$redis_script_usec" <<'PY'
import statistics, sys
def us(v):
    return float(v[:-2]) * 1000 if v.endswith("ms") else float(v[:-2]) if v.endswith("us") else float(v[:-1]) * 1e6
rows = [line.split() for line in open(sys.argv[1])]
fig, redis_requests = {}, 0
for _, target, rps, p50, p99, errors, total, gateway_cpu, redis_cpu in rows:
    f = fig.setdefault(target, {"rps": [], "p50": [], "p99": [], "cpu": [], "redis_cpu": [], "errors": 0})
    f["rps"].append(float(rps)); f["p50"].append(us(p50)); f["p99"].append(us(p99)); f["errors"] += int(errors)
    f["cpu"].append(float(gateway_cpu)); f["redis_cpu"].append(float(redis_cpu))
    if target == "redis":
        redis_requests += int(total)
med = {t: {k: statistics.median(v) for k, v in f.items() if k != "errors"} for t, f in fig.items()}
for t in ("off", "memory", "redis"):
    print(f"median {t}: {med[t]['rps']:.0f} requests/s, p50 {med[t]['p50']:.0f} us, p99 {med[t]['p99']:.0f} us, "
          f"non-2xx {fig[t]['errors']}, gateway CPU {med[t]['cpu']:.1f} us/request"
          + (f", redis-server CPU {med[t]['redis_cpu']:.1f} us/request" if t == "redis" else ""))
o = med["off"]
for t in ("memory", "redis"):
    m = med[t]
    print(f"{t}/off: throughput {m['rps'] / o['rps']:.3f}x, p50 {m['p50'] / o['p50']:.3f}x "
          f"(adds {m['p50'] - o['p50']:.0f} us), p99 {m['p99'] / o['p99']:.3f}x")
calls = int(sys.argv[2])
print(f"redis: {calls} script calls for {redis_requests} requests = {calls / max(1, redis_requests):.2f} per request, "
      f"{int(sys.argv[3]) / max(1, redis_requests):.1f} us per request inside the script "
      "(requests arriving while a call is on its way go in the next one, with the releases that wait)")
PY
