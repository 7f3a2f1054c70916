#!/usr/bin/env bash
# What API keys and rate limits cost per request, end to end, measured side by side in one run: four gateways in
# front of one zero-latency simulator, the same wrk load (non-streaming chat completions with an API key, 8 output
# tokens) on each in turn, ROUNDS times, so all four see the same machine noise:
#   off         - no keys, no limits (the gateway as it was before them; the key header is ignored)
#   memory      - keys on, limits on key, tenant and model (RPM, TPM, max-parallel) in this replica's memory
#   redis       - the same limits shared through a redis-server on loopback, with allowances (the default
#                 redis-allowance: requests far from their limits are decided without a call)
#   redis-each  - the same through a second redis-server, with redis-allowance: 0 (every request decided in Redis)
# Limits are high enough that nothing is refused: every request is checked against all 7 and settled at its end.
# Each gateway gets WARMUP of load first (JIT). Prints requests/s, p50 and p99 per round, then medians, the ratios
# to "off", the p50 each store adds, for each Redis leg the script calls per request and the time Redis spent
# running them (from its own command counts), and the CPU each request costs the gateway and redis-server (from
# /proc, utime + stime over the rounds).
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
REDIS_EACH_PORT=${REDIS_EACH_PORT:-18278}
REDIS_EACH_GATEWAY_PORT=${REDIS_EACH_GATEWAY_PORT:-18286}
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

declare -A redis_pid
for leg in redis:$REDIS_PORT redis-each:$REDIS_EACH_PORT; do
	redis-server --port "${leg##*:}" --bind 127.0.0.1 --save '' --appendonly no >"$work/${leg%%:*}.log" 2>&1 &
	redis_pid[${leg%%:*}]=$!
	pids+=($!)
done
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
	--infergate.rate-limits.store=redis --infergate.redis.url="redis://127.0.0.1:${REDIS_PORT}"
start_gateway redis-each "$REDIS_EACH_GATEWAY_PORT" --spring.config.additional-location="file:$work/limits.yml" \
	--infergate.rate-limits.store=redis --infergate.redis.url="redis://127.0.0.1:${REDIS_EACH_PORT}" \
	--infergate.rate-limits.redis-allowance=0
ports="$OFF_PORT $MEMORY_PORT $REDIS_GATEWAY_PORT $REDIS_EACH_GATEWAY_PORT"
for port in $ports; do
	for _ in $(seq 1 240); do
		curl -sf "http://127.0.0.1:$((port + 1))/actuator/health/readiness" >/dev/null && break
		sleep 0.5
	done
	curl -sf "http://127.0.0.1:$((port + 1))/actuator/health/readiness" >/dev/null \
		|| { echo "gateway on $port not ready; logs in $work" >&2; cat "$work"/gateway-*.log >&2; exit 1; }
done

run() { # name port
	local gateway_before redis_before=0 redis_after=0
	gateway_before=$(cpu_ticks "${gateway_pid[$1]}")
	[ -z "${redis_pid[$1]:-}" ] || redis_before=$(cpu_ticks "${redis_pid[$1]}")
	wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/wrk/chat-completion-with-key.lua \
		"http://127.0.0.1:$2" >"$work/wrk.out"
	[ -z "${redis_pid[$1]:-}" ] || redis_after=$(cpu_ticks "${redis_pid[$1]}")
	echo "$(($(cpu_ticks "${gateway_pid[$1]}") - gateway_before)) $((redis_after - redis_before))" >"$work/ticks"
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

for port in $ports; do
	wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/wrk/chat-completion-with-key.lua "http://127.0.0.1:${port}" >/dev/null
done

for port in "$REDIS_PORT" "$REDIS_EACH_PORT"; do
	redis-cli -p "$port" config resetstat >/dev/null
done
results="$work/results"
echo "round target requests/s p50 p99 non-2xx requests gateway_cpu_us/request redis_cpu_us/request"
for round in $(seq 1 "$ROUNDS"); do
	for target in off memory redis redis-each; do
		case $target in
			off) port=$OFF_PORT ;; memory) port=$MEMORY_PORT ;;
			redis) port=$REDIS_GATEWAY_PORT ;; redis-each) port=$REDIS_EACH_GATEWAY_PORT ;;
		esac
		line=$(run "$target" "$port")
		echo "$round $line" | tee -a "$results"
	done
done
# per Redis leg: script calls and the microseconds Redis spent running them (its own command counts: calls=N,usec=M)
script_stats() {
	redis-cli -p "$1" info commandstats | tr -d '\r' \
		| awk -F'[:=,]' '/^cmdstat_(evalsha|eval):/ { n += $3; u += $5 } END { print n + 0, u + 0 }'
}

python3 - "$results" "$(script_stats "$REDIS_PORT")" "$(script_stats "$REDIS_EACH_PORT")" <<'PY'
import statistics, sys
def us(v):
    return float(v[:-2]) * 1000 if v.endswith("ms") else float(v[:-2]) if v.endswith("us") else float(v[:-1]) * 1e6
rows = [line.split() for line in open(sys.argv[1])]
fig, requests = {}, {}
for _, target, rps, p50, p99, errors, total, gateway_cpu, redis_cpu in rows:
    f = fig.setdefault(target, {"rps": [], "p50": [], "p99": [], "cpu": [], "redis_cpu": [], "errors": 0})
    f["rps"].append(float(rps)); f["p50"].append(us(p50)); f["p99"].append(us(p99)); f["errors"] += int(errors)
    f["cpu"].append(float(gateway_cpu)); f["redis_cpu"].append(float(redis_cpu))
    requests[target] = requests.get(target, 0) + int(total)
med = {t: {k: statistics.median(v) for k, v in f.items() if k != "errors"} for t, f in fig.items()}
legs = ("off", "memory", "redis", "redis-each")
for t in legs:
    print(f"median {t}: {med[t]['rps']:.0f} requests/s, p50 {med[t]['p50']:.0f} us, p99 {med[t]['p99']:.0f} us, "
          f"non-2xx {fig[t]['errors']}, gateway CPU {med[t]['cpu']:.1f} us/request"
          + (f", redis-server CPU {med[t]['redis_cpu']:.1f} us/request" if t.startswith("redis") else ""))
o = med["off"]
for t in legs[1:]:
    m = med[t]
    print(f"{t}/off: throughput {m['rps'] / o['rps']:.3f}x, p50 {m['p50'] / o['p50']:.3f}x "
          f"(adds {m['p50'] - o['p50']:.0f} us), p99 {m['p99'] / o['p99']:.3f}x")
for t, stats in (("redis", sys.argv[2]), ("redis-each", sys.argv[3])):
    calls, usec = (int(v) for v in stats.split())
    print(f"{t}: {calls} script calls for {requests[t]} requests = {calls / max(1, requests[t]):.4f} per request, "
          f"{usec / max(1, requests[t]):.1f} us per request inside the script")
PY
