#!/usr/bin/env bash
# What API keys, rate limits and budgets cost per request, end to end, measured side by side in one run: one gateway
# per leg in front of one zero-latency simulator, the same wrk load (non-streaming chat completions with an API key,
# 8 output tokens) on each in turn, ROUNDS times, so all legs see the same machine noise. The legs (LEGS picks them,
# in order; the first is the baseline of the ratios):
#   off             - no keys, no limits (the gateway as it was before them; the key header is ignored)
#   memory          - keys on, limits on key, tenant and model (RPM, TPM, max-parallel) in this replica's memory
#   redis           - the same limits shared through a redis-server on loopback, with allowances (the default
#                     redis-allowance: requests far from their limits are decided without a call)
#   redis-each      - the same through its own redis-server, with redis-allowance: 0 (every request decided in Redis)
#   memory-budgets  - memory's limits, the model priced, and hard month budgets on key, tenant and model
#   redis-budgets   - the same in Redis (limits with allowances; budgets are checked in Redis for every request)
# Limits and budgets are high enough that nothing is refused: every request is checked against all of them and
# settled at its end. Each gateway gets WARMUP of load first (JIT); even rounds run the legs backwards. Prints
# requests/s, p50 and p99 per round, then medians, the ratios to the first leg, the p50 each leg adds, for each Redis leg the script calls per request and
# the time Redis spent running them (from its own command counts), and the CPU each request costs the gateway and
# redis-server (from /proc, utime + stime over the rounds).
# Environment: LEGS ("off memory redis redis-each"), ROUNDS (5), CONNECTIONS (32), THREADS (2), DURATION (20s),
# WARMUP (60s). For budgets: LEGS="memory memory-budgets redis-budgets".
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/scripts/wrk-legs.sh # cpu_ticks

SIM_JAR=model-server-sim/target/model-server-sim.jar
GATEWAY_JAR=gateway-app/target/gateway-app.jar
SIM_PORT=${SIM_PORT:-18200}
BASE_PORT=${BASE_PORT:-18280}
LEGS=${LEGS:-off memory redis redis-each}
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
# the same, the model priced and with a hard month budget on key, tenant and model that nothing reaches
sed -E 's/(limits: \{rpm: [0-9]+, tpm: [0-9]+(, max-parallel: [0-9]+)?)\}/\1, budget: {amount: 9000000, period: month}}/' "$work/limits.yml" \
	| sed -E 's/(bench-model: \{pool: bench,)/\1 price: {input: 0.15, cached-input: 0.075, output: 0.6},/' \
	>"$work/budgets.yml"

declare -A redis_pid=() redis_port=() gateway_pid=() gateway_port=()
gateways=0 redises=0 redis_legs=""
java -jar "$SIM_JAR" --port "$SIM_PORT" --model bench-model --perf-profile zero >"$work/sim.log" 2>&1 &
pids+=($!)
start_redis() { # leg: a redis-server of the leg's own
	local port=$((BASE_PORT + 60 + redises))
	redises=$((redises + 1))
	redis_legs="$redis_legs $1"
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no >"$work/redis-$1.log" 2>&1 &
	redis_pid[$1]=$!
	redis_port[$1]=$port
	pids+=($!)
}
start_gateway() { # leg extra-args...
	local name=$1 port=$((BASE_PORT + 2 * gateways))
	gateways=$((gateways + 1))
	shift
	java -jar "$GATEWAY_JAR" --server.port="$port" --management.server.port="$((port + 1))" \
		--infergate.pools.bench.endpoints="http://127.0.0.1:${SIM_PORT}" --logging.level.root=WARN "$@" \
		>"$work/gateway-$name.log" 2>&1 &
	pids+=($!)
	gateway_pid[$name]=$!
	gateway_port[$name]=$port
}
for leg in $LEGS; do
	case $leg in
		off) start_gateway off ;;
		memory) start_gateway memory --spring.config.additional-location="file:$work/limits.yml" ;;
		memory-budgets) start_gateway memory-budgets --spring.config.additional-location="file:$work/budgets.yml" ;;
		redis | redis-each | redis-budgets)
			start_redis "$leg"
			config=limits.yml allowance=0.01
			[ "$leg" != redis-budgets ] || config=budgets.yml
			[ "$leg" != redis-each ] || allowance=0
			start_gateway "$leg" --spring.config.additional-location="file:$work/$config" \
				--infergate.rate-limits.store=redis --infergate.redis.url="redis://127.0.0.1:${redis_port[$leg]}" \
				--infergate.rate-limits.redis-allowance=$allowance ;;
		*) echo "unknown leg $leg" >&2; exit 2 ;;
	esac
done
for leg in $LEGS; do
	port=${gateway_port[$leg]}
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

for leg in $LEGS; do
	wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/wrk/chat-completion-with-key.lua \
		"http://127.0.0.1:${gateway_port[$leg]}" >/dev/null
done

for leg in $redis_legs; do
	redis-cli -p "${redis_port[$leg]}" config resetstat >/dev/null
done
results="$work/results"
echo "round target requests/s p50 p99 non-2xx requests gateway_cpu_us/request redis_cpu_us/request"
for round in $(seq 1 "$ROUNDS"); do
	order=$LEGS
	# every other round backwards, so a drift of the machine weighs on every leg alike
	[ $((round % 2)) -eq 1 ] || order=$(echo "$LEGS" | tr ' ' '\n' | tac | tr '\n' ' ')
	for target in $order; do
		line=$(run "$target" "${gateway_port[$target]}")
		echo "$round $line" | tee -a "$results"
	done
done
# per Redis leg: script calls and the microseconds Redis spent running them (its own command counts: calls=N,usec=M)
script_stats() {
	redis-cli -p "$1" info commandstats | tr -d '\r' \
		| awk -F'[:=,]' '/^cmdstat_(evalsha|eval):/ { n += $3; u += $5 } END { print n + 0, u + 0 }'
}

stats=()
for leg in $redis_legs; do
	stats+=("$leg=$(script_stats "${redis_port[$leg]}" | tr ' ' ',')")
done
python3 - "$results" "$LEGS" "${stats[@]}" <<'PY'
import statistics, sys
def us(v):
    return float(v[:-2]) * 1000 if v.endswith("ms") else float(v[:-2]) if v.endswith("us") else float(v[:-1]) * 1e6
rows = [line.split() for line in open(sys.argv[1])]
legs = sys.argv[2].split()
fig, requests = {}, {}
for _, target, rps, p50, p99, errors, total, gateway_cpu, redis_cpu in rows:
    f = fig.setdefault(target, {"rps": [], "p50": [], "p99": [], "cpu": [], "redis_cpu": [], "errors": 0})
    f["rps"].append(float(rps)); f["p50"].append(us(p50)); f["p99"].append(us(p99)); f["errors"] += int(errors)
    f["cpu"].append(float(gateway_cpu)); f["redis_cpu"].append(float(redis_cpu))
    requests[target] = requests.get(target, 0) + int(total)
med = {t: {k: statistics.median(v) for k, v in f.items() if k != "errors"} for t, f in fig.items()}
for t in legs:
    print(f"median {t}: {med[t]['rps']:.0f} requests/s, p50 {med[t]['p50']:.0f} us, p99 {med[t]['p99']:.0f} us, "
          f"non-2xx {fig[t]['errors']}, gateway CPU {med[t]['cpu']:.1f} us/request"
          + (f", redis-server CPU {med[t]['redis_cpu']:.1f} us/request" if t.startswith("redis") else ""))
base = legs[0]
o = med[base]
for t in legs[1:]:
    m = med[t]
    print(f"{t}/{base}: throughput {m['rps'] / o['rps']:.3f}x, p50 {m['p50'] / o['p50']:.3f}x "
          f"(adds {m['p50'] - o['p50']:.0f} us), p99 {m['p99'] / o['p99']:.3f}x, "
          f"gateway CPU {m['cpu'] / o['cpu']:.3f}x")
for stat in sys.argv[3:]:
    t, values = stat.split("=")
    calls, usec = (int(v) for v in values.split(","))
    print(f"{t}: {calls} script calls for {requests[t]} requests = {calls / max(1, requests[t]):.4f} per request, "
          f"{usec / max(1, requests[t]):.1f} us per request inside the scripts")
PY
