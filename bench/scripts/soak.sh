#!/usr/bin/env bash
# Soak: STREAMS concurrent streaming chat completions through the gateway for DURATION, against PODS simulated model
# servers stepping at the H100 fit (llama-3.1-8b-h100, max-num-seqs 256 each), all on loopback. Not part of CI.
#
# Each wrk connection is one stream at a time: it sends a streamed chat completion of MAX_TOKENS tokens, reads its
# SSE events to [DONE] and sends the next, so wrk's -c is the number of concurrent streams. When DURATION ends, wrk
# closes its connections, cutting the streams in flight: the gateway must see each cancel and release what it counted.
#
# Before the load, one curl-like request through the gateway checks that a response really is streamed (SSE data:
# events arriving over time, one per token, and [DONE] last), and a full GC (jcmd GC.run) gives the gateway's live
# heap. After the load and SETTLE seconds, another full GC gives it again. Printed at the end:
#   wrk: streams completed, streams/s, stream duration p50/p99, socket errors and non-2xx answers, tokens/s relayed
#        (MAX_TOKENS per completed stream) against the H100 fit's nominal rate at STREAMS / PODS streams per pod;
#   GC during the load (unified logging, -Xlog:gc,gc+cpu): collections, pause p50/p99/max and total, the GC threads'
#        CPU time in the pauses, heap after GC (first, last, max), the median heap after GC per minute, and the live
#        heap after a full GC before and after;
#   /actuator/inference: per endpoint in-flight requests and tokens, per pool flow control's in flight and queued,
#        at the end of the load and after SETTLE seconds; the gateway's warnings and errors in its log;
#   the gateway's RSS (now and peak) and CPU time (during the load, and per completed stream).
# It exits 1, saying why, if wrk saw a socket error or a non-2xx answer, the gateway logged an error, or any in-flight
# or queued count is not 0 after SETTLE seconds.
#
# The machine runs the pods and wrk beside the gateway: on few cores the token rate falls below the H100 fit's, and
# the figures say how far. Run it under the CPU lock: flock /tmp/infergate-cpu.lock bash bench/scripts/soak.sh
#
# Environment: PODS (8), STREAMS (1000), DURATION (10m, as wrk takes it), MAX_TOKENS (512), THREADS (wrk threads, 2),
# TIMEOUT (wrk's per-stream timeout, 300s), SETTLE (10, seconds), SAMPLE (30, seconds between samples of the in-flight
# counts and the RSS during the load), JAVA_OPTS (the gateway's JVM options, "-Xms1g -Xmx1g"; GC logging is added),
# GATEWAY_JAR (gateway-app/target/gateway-app.jar), WORK (a new /tmp/soak.* directory: gc.log, wrk.txt, samples, the
# inference reports).
set -euo pipefail
cd "$(dirname "$0")/../.."

PODS=${PODS:-8}
STREAMS=${STREAMS:-1000}
DURATION=${DURATION:-10m}
MAX_TOKENS=${MAX_TOKENS:-512}
THREADS=${THREADS:-2}
TIMEOUT=${TIMEOUT:-300s}
SETTLE=${SETTLE:-10}
SAMPLE=${SAMPLE:-30}
JAVA_OPTS=${JAVA_OPTS:--Xms1g -Xmx1g}
GATEWAY_JAR=${GATEWAY_JAR:-gateway-app/target/gateway-app.jar}
PERF_PROFILE=llama-3.1-8b-h100
MAX_NUM_SEQS=256 # the simulator's default batch limit
FIRST_SIM_PORT=19401
API_PORT=19420
MANAGEMENT_PORT=19421

for tool in wrk curl python3 jcmd; do
	command -v "$tool" >/dev/null || { echo "$tool is not installed (wrk, curl, python3, and a JDK for jcmd)" >&2; exit 1; }
done
if [ "$STREAMS" -gt $((PODS * MAX_NUM_SEQS)) ]; then
	echo "$STREAMS streams do not fit in $PODS pods of $MAX_NUM_SEQS sequences: raise PODS" >&2
	exit 1
fi
if [ "$(ulimit -n)" -lt $((3 * STREAMS + 200)) ]; then
	echo "ulimit -n is $(ulimit -n): wrk and the gateway need about $((3 * STREAMS + 200)) descriptors" >&2
	exit 1
fi

WORK=${WORK:-$(mktemp -d /tmp/soak.XXXXXX)}
mkdir -p "$WORK"
CONNECTIONS=$STREAMS
GATEWAY_JAVA_OPTS="$JAVA_OPTS -Xlog:gc,gc+cpu:file=$WORK/gc.log:timemillis,uptime,level,tags"
# start_sims, start_gateway, await_ready, the admin's credentials, and killing what they started on exit
. bench/scripts/lib/gateway-rounds.sh
[ -f "$SIM_JAR" ] && [ -f "$GATEWAY_JAR" ] || ./mvnw -B -q -DskipTests package -pl gateway-app,model-server-sim -am

echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "soak: $STREAMS streams of $MAX_TOKENS tokens for $DURATION; $PODS pods ($PERF_PROFILE), wrk -t$THREADS;" \
	"gateway $JAVA_OPTS; files in $WORK"

start_sims "$FIRST_SIM_PORT" "$PODS" "$PERF_PROFILE"
for url in ${SIM_URLS//,/ }; do
	curl -sf -o /dev/null "$url/health" || { echo "pod $url did not start; see /tmp/gateway-rounds-sim-*.log" >&2; exit 1; }
done
start_gateway "$GATEWAY_JAR" "$API_PORT" "$MANAGEMENT_PORT" "$SIM_URLS"
gateway=${rounds_pids[-1]}
gateway_log=/tmp/gateway-rounds-gateway-$API_PORT.log
await_ready "$MANAGEMENT_PORT"

body='{"model":"bench-model","max_tokens":'$MAX_TOKENS',"stream":true,"messages":[{"role":"system","content":"You are a helpful assistant."},{"role":"user","content":"Tell me a long story about a lighthouse keeper."}]}'
wrk_post_script "$WORK/stream.lua" "$body"

# One stream through the gateway: SSE, one content event per token, spread over time, [DONE] last.
python3 - "$API_PORT" "$body" "$MAX_TOKENS" <<'PY'
import http.client, sys, time
port, body, max_tokens = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
start = time.monotonic()
conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
response = conn.getresponse()
kind = response.getheader("content-type", "")
events, first, last_line = 0, None, ""
for raw in response:
    line = raw.decode().strip()
    if line.startswith("data: "):
        events += 1
        first = first if first is not None else time.monotonic() - start
        last_line = line
total = time.monotonic() - start
problems = []
if response.status != 200:
    problems.append(f"status {response.status}")
if not kind.startswith("text/event-stream"):
    problems.append(f"content-type '{kind}'")
if last_line != "data: [DONE]":
    problems.append(f"last event '{last_line[:80]}', not [DONE]")
if events < max_tokens:
    problems.append(f"{events} events for {max_tokens} tokens")
if first is None or first > total / 2:
    problems.append(f"first event after {first} s of {total:.2f} s: not streamed")
if problems:
    sys.exit("the check stream failed: " + "; ".join(problems))
print(f"check stream: {response.status} {kind}, {events} data: events ending with [DONE], first after "
      f"{first * 1000:.0f} ms, last after {total * 1000:.0f} ms")
PY

inference() { # -> the gateway's /actuator/inference JSON
	curl -sf -u "admin:$BENCH_PASSWORD" "http://127.0.0.1:$MANAGEMENT_PORT/actuator/inference"
}
in_flight() { # FILE -> "requests tokens flow-in-flight flow-queued running-on-pods", summed over endpoints and pools
	python3 - "$1" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
endpoints = [e for p in report["pools"] for e in p["endpoints"]]
flows = [p["flowControl"] for p in report["pools"] if p.get("flowControl")]
print(sum(e["inFlight"]["requests"] for e in endpoints), sum(e["inFlight"]["tokens"] for e in endpoints),
      sum(f["inFlightRequests"] for f in flows), sum(f["queuedRequests"] for f in flows),
      sum((e["metrics"] or {}).get("runningRequests", 0) for e in endpoints))
PY
}
live_heap() { # LABEL: a full GC in the gateway; its heap after is the last Pause Full line of the GC log
	jcmd "$gateway" GC.run >/dev/null
	sleep 1
	echo "$1 $(grep 'Pause Full' "$WORK/gc.log" | tail -1 | sed -E 's/.*->([0-9]+[KMG])\(.*/\1/')" >>"$WORK/live-heap"
}

live_heap before
load_start=$(date +%s%3N)
cpu_before=$(cpu_ticks "$gateway")
wrk -t"$THREADS" -c"$STREAMS" -d"$DURATION" --timeout "$TIMEOUT" --latency -s "$WORK/stream.lua" \
	"http://127.0.0.1:$API_PORT" >"$WORK/wrk.txt" &
wrk_pid=$!
rounds_pids+=("$wrk_pid")
# every SAMPLE seconds of the load: what the gateway counts in flight, and its RSS
echo "seconds in-flight-requests in-flight-tokens flow-in-flight flow-queued running-on-pods RSS-MB" >"$WORK/samples"
next_sample=$SAMPLE
while kill -0 "$wrk_pid" 2>/dev/null; do
	sleep 1
	if [ $(($(date +%s%3N) - load_start)) -ge $((next_sample * 1000)) ] && kill -0 "$wrk_pid" 2>/dev/null; then
		if inference >"$WORK/inference-sample.json"; then
			echo "$next_sample $(in_flight "$WORK/inference-sample.json") $(awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' \
				"/proc/$gateway/status")" >>"$WORK/samples"
		else
			echo "$next_sample - - - - - -" >>"$WORK/samples" # no answer from the management port
		fi
		next_sample=$((next_sample + SAMPLE))
	fi
done
wait "$wrk_pid"
load_end=$(date +%s%3N)
cpu_after=$(cpu_ticks "$gateway")
inference >"$WORK/inference-at-end.json"
settled_after=""
for second in $(seq 1 "$SETTLE"); do
	sleep 1
	inference >"$WORK/inference-settled.json"
	read -r requests tokens flow_in_flight flow_queued _ <<<"$(in_flight "$WORK/inference-settled.json")"
	if [ -z "$settled_after" ] && [ $((requests + tokens + flow_in_flight + flow_queued)) -eq 0 ]; then
		settled_after=$second
	fi
done
live_heap after

echo
echo "--- wrk"
cat "$WORK/wrk.txt"

echo "--- load"
python3 - "$WORK/wrk.txt" "$MAX_TOKENS" "$STREAMS" "$PODS" "$(( (load_end - load_start) ))" <<'PY'
import re, sys
text, max_tokens, streams, pods, millis = open(sys.argv[1]).read(), *map(int, sys.argv[2:])
completed = int(re.search(r"(\d+) requests in", text).group(1))
seconds = millis / 1000
per_pod = streams / pods
step_micros = 5753 + 6.00 * per_pod  # the H100 fit while every pod decodes its share of the streams
nominal = 1e6 / step_micros
print(f"streams completed {completed} in {seconds:.0f} s: {completed / seconds:.1f} streams/s; tokens relayed "
      f"{completed * max_tokens / seconds:.0f}/s ({completed * max_tokens / seconds / streams:.1f} per stream per s; "
      f"the H100 fit at {per_pod:.0f} streams per pod gives {nominal:.0f} per stream per s, {nominal * streams:.0f} in all)")
PY

echo "--- errors"
read -r connect_errors read_errors write_errors timeouts <<<"$(sed -nE \
	's/.*Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+).*/\1 \2 \3 \4/p' "$WORK/wrk.txt")"
non2xx=$(sed -nE 's/.*Non-2xx or 3xx responses: ([0-9]+).*/\1/p' "$WORK/wrk.txt")
connect_errors=${connect_errors:-0} read_errors=${read_errors:-0} write_errors=${write_errors:-0} timeouts=${timeouts:-0}
non2xx=${non2xx:-0}
gateway_errors=$(grep -c ' ERROR ' "$gateway_log" || true)
gateway_warnings=$(grep -c ' WARN ' "$gateway_log" || true)
echo "wrk: connect $connect_errors, read $read_errors, write $write_errors, timeout $timeouts; non-2xx $non2xx"
echo "gateway log: $gateway_errors ERROR lines, $gateway_warnings WARN lines ($gateway_log)"
grep -E ' (ERROR|WARN) ' "$gateway_log" | sed -E 's/^[^ ]+ +//' | cut -c1-200 | sort | uniq -c | sort -rn | head -10 || true

echo "--- GC (during the load; live heap from full GCs before and after it)"
python3 - "$WORK/gc.log" "$load_start" "$load_end" "$WORK/live-heap" <<'PY'
import re, statistics, sys
path, start, end, live = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
units = {"K": 1 / 1024, "M": 1, "G": 1024}
pauses = []  # (epoch millis, kind, heap after MB, pause ms)
for line in open(path):
    m = re.search(r"\[(\d+)ms\].*GC\(\d+\) (Pause .*?) (\d+)([KMG])->(\d+)([KMG])\((\d+)([KMG])\) ([\d.]+)ms", line)
    if m:
        pauses.append((int(m.group(1)), m.group(2), int(m.group(5)) * units[m.group(6)], float(m.group(9))))
load = [p for p in pauses if start <= p[0] <= end]
live_heap = "live heap after a full GC: " + ", ".join(" ".join(l.split()) for l in open(live))
if not load:
    print("no collection during the load; " + live_heap)
    sys.exit()
times = sorted(p[3] for p in load)
def pct(q):
    return times[min(len(times) - 1, max(0, round(q * len(times) + 0.5) - 1))]
kinds = {}
for p in load:
    kinds[p[1]] = kinds.get(p[1], 0) + 1
print(f"collections {len(load)} ({', '.join(f'{k}: {v}' for k, v in sorted(kinds.items()))}); pause p50 {pct(0.5):.2f} ms, "
      f"p99 {pct(0.99):.2f} ms, max {times[-1]:.2f} ms, total {sum(times):.0f} ms "
      f"({sum(times) / (end - start) * 100:.2f}% of the load's wall time)")
heap = [p[2] for p in load]
print(f"heap after GC: first {heap[0]:.0f} MB, last {heap[-1]:.0f} MB, max {max(heap):.0f} MB")
print("minute  collections  median heap after GC MB  max heap after GC MB  max pause ms")
minutes = {}
for p in load:
    minutes.setdefault((p[0] - start) // 60000, []).append(p)
for minute, ps in sorted(minutes.items()):
    print(f"{minute + 1:>6} {len(ps):>12} {statistics.median(q[2] for q in ps):>24.0f} "
          f"{max(q[2] for q in ps):>21.0f} {max(q[3] for q in ps):>13.2f}")
full = [m for m in minutes if m < (end - start) // 60000]  # minutes the load lasted throughout
first, last = min(minutes), max(full or minutes)
print(f"trend: median heap after GC {statistics.median(q[2] for q in minutes[first]):.0f} MB in minute {first + 1}, "
      f"{statistics.median(q[2] for q in minutes[last]):.0f} MB in minute {last + 1}")
# gc+cpu: the GC threads' CPU time in each pause against its wall time; on a busy machine they wait for a core
cpu = [tuple(map(float, m.groups())) for m in (re.search(r"\[(\d+)ms\].*User=([\d.]+)s Sys=([\d.]+)s Real=([\d.]+)s", l)
       for l in open(path)) if m and start <= float(m.group(1)) <= end]
if cpu:
    print(f"GC threads' CPU in the pauses: {sum(c[1] + c[2] for c in cpu):.1f} s (user + sys) in {sum(c[3] for c in cpu):.1f} s "
          f"of wall time")
after_load = [p for p in pauses if p[0] > end and "Diagnostic Command" not in p[1]]
print(f"after the load, while settling: {len(after_load)} collections")
print(live_heap)
PY

echo "--- in flight (/actuator/inference)"
summary() { # FILE
	read -r requests tokens flow_in_flight flow_queued running <<<"$(in_flight "$1")"
	echo "endpoints: in-flight requests $requests, tokens $tokens; flow control: in flight $flow_in_flight, queued" \
		"$flow_queued; pods (last scrape): running $running"
}
echo "during the load, every $SAMPLE s:"
awk '{printf "  %7s %18s %16s %14s %11s %15s %6s\n", $1, $2, $3, $4, $5, $6, $7}' "$WORK/samples"
echo "when wrk stopped: $(summary "$WORK/inference-at-end.json")"
echo "after ${SETTLE} s: $(summary "$WORK/inference-settled.json")${settled_after:+ (all 0 after ${settled_after} s)}"
python3 - "$WORK/inference-settled.json" <<'PY'
import json, sys
for pool in json.load(open(sys.argv[1]))["pools"]:
    for e in pool["endpoints"]:
        print(f"  {pool['name']} {e['id']}: in flight {e['inFlight']['requests']} requests, {e['inFlight']['tokens']} tokens")
    flow = pool.get("flowControl")
    if flow:
        print(f"  {pool['name']} flow control: in flight {flow['inFlightRequests']} requests, {flow['inFlightTokens']} "
              f"tokens; queued {flow['queuedRequests']} requests, {flow['queuedBytes']} bytes")
PY

echo "--- gateway process"
hz=$(getconf CLK_TCK)
completed=$(sed -nE 's/^ *([0-9]+) requests in.*/\1/p' "$WORK/wrk.txt")
awk '/^VmRSS|^VmHWM/ {printf "%s %.0f MB  ", $1, $2 / 1024} END {print ""}' "/proc/$gateway/status"
awk -v ticks=$((cpu_after - cpu_before)) -v total="$(cpu_ticks "$gateway")" -v hz="$hz" -v ms=$((load_end - load_start)) \
	-v completed="${completed:-0}" 'BEGIN {
	printf "CPU time: %.1f s during the load (%.2f cores), %.1f s since start; %.2f ms per completed stream\n",
		ticks / hz, ticks / hz / (ms / 1000), total / hz, (completed > 0 ? ticks / hz * 1000 / completed : 0) }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

problems=()
[ $((connect_errors + read_errors + write_errors + timeouts)) -eq 0 ] \
	|| problems+=("wrk saw socket errors (connect $connect_errors, read $read_errors, write $write_errors, timeout $timeouts)")
[ "$non2xx" -eq 0 ] || problems+=("$non2xx answers were not 2xx")
[ "$gateway_errors" -eq 0 ] || problems+=("the gateway logged $gateway_errors ERROR lines")
read -r requests tokens flow_in_flight flow_queued _ <<<"$(in_flight "$WORK/inference-settled.json")"
[ $((requests + tokens + flow_in_flight + flow_queued)) -eq 0 ] \
	|| problems+=("in flight after ${SETTLE} s: $requests requests, $tokens tokens; flow control $flow_in_flight in flight, $flow_queued queued")
if [ ${#problems[@]} -gt 0 ]; then
	printf 'FAILED: %s\n' "${problems[@]}"
	exit 1
fi
echo "OK: no errors, nothing left in flight"
