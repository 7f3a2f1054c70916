#!/usr/bin/env bash
# Does a capture rank the policies as the traffic it was taken from does? Runs the workload itself in virtual time
# and the capture's replay, each RUNS times with its arrival times scaled by 1 + k * STEP (k = -(RUNS-1)/2 ..
# (RUNS-1)/2: the workload's --rate, the replay's --speed), and compares per policy the median TTFT p90 of the runs,
# and the ranking by those medians (docs/routing-quality.md, "Replaying captured traffic").
#
# Why several runs: near saturation a policy's TTFT p90 is set by which pod the few longest prompts meet, and a 0.1%
# change of every arrival time moves it by up to a quarter; one run of each side is one draw of that.
#
# Without CAPTURE, step 1 is run too: a live run of the workload through one gateway jar under CAPTURE_POLICY,
# capturing, at time scale 0.1 (so the replay's speed is 10). Needs a quiet machine: a capture keeps the delays of a
# loaded one.
#
#   bench/scripts/trace-vs-workload.sh [--workload FILE] [--rate R] [--seed N] [--capture DIR] [--speed X]
#       [--runs N] [--step S] [--policies LIST] [--out DIR]
#
# Writes OUT/trace-vs-workload.md and prints it. Build first: ./mvnw -B -q -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=${JAR:-bench/target/routing-bench.jar}
WORKLOAD=bench/workloads/multi-turn-chat-all-turns.yaml
RATE=150
SEED=
CAPTURE=
CAPTURE_POLICY=hybrid
SPEED=10
RUNS=5
STEP=0.001
POLICIES=round-robin,least-request,llm-d,hybrid
OUT=
while [ $# -gt 0 ]; do
	case "$1" in
		--workload) WORKLOAD=$2 ;;
		--rate) RATE=$2 ;;
		--seed) SEED=$2 ;;
		--capture) CAPTURE=$2 ;;
		--capture-policy) CAPTURE_POLICY=$2 ;;
		--speed) SPEED=$2 ;;
		--runs) RUNS=$2 ;;
		--step) STEP=$2 ;;
		--policies) POLICIES=$2 ;;
		--out) OUT=$2 ;;
		*) echo "unknown option: $1 (see the comment at the top of $0)" >&2; exit 2 ;;
	esac
	shift 2
done
case "$RUNS" in
	''|*[!0-9]*|0) echo "--runs must be a positive whole number, got '$RUNS'" >&2; exit 2 ;;
esac
[ -f "$WORKLOAD" ] || { echo "no workload file $WORKLOAD" >&2; exit 2; }
[ -f "$JAR" ] || { echo "no $JAR: build first (./mvnw -B -q -DskipTests package)" >&2; exit 2; }
OUT=${OUT:-bench-out/trace-vs-workload-$(basename "$WORKLOAD" .yaml)-$RATE${SEED:+-seed$SEED}}
mkdir -p "$OUT"
SEED_ARGS=()
[ -n "$SEED" ] && SEED_ARGS=(--seed "$SEED")

if [ -z "$CAPTURE" ]; then
	echo "live run under $CAPTURE_POLICY, capturing (minutes: the pods run at time scale 0.1)" >&2
	java -jar "$JAR" --live --workload "$WORKLOAD" --policies "$CAPTURE_POLICY" --rate "$RATE" "${SEED_ARGS[@]}" \
		--out "$OUT/live" --capture "$OUT/live/captures" > "$OUT/live.log" 2>&1
	CAPTURE=$OUT/live/captures/$CAPTURE_POLICY/gateway-0
	SPEED=10
fi
[ -e "$CAPTURE" ] || { echo "no capture at $CAPTURE" >&2; exit 2; }

# The scaled rates and speeds, one per line: k from -(RUNS-1)/2, in steps of 1.
factors=$(python3 -c "
n, s = $RUNS, $STEP
print('\n'.join(repr(round(1 + (k - (n - 1) / 2) * s, 9)) for k in range(n)))")
WARMUP=$(sed -n 's/^warmup:[[:space:]]*\([0-9]*\).*/\1/p' "$WORKLOAD")
i=0
for f in $factors; do
	rate=$(python3 -c "print(round($RATE * $f, 6))")
	speed=$(python3 -c "print(round($SPEED * $f, 6))")
	echo "run $((i + 1)) of $RUNS: workload at $rate requests/s, capture at speed $speed" >&2
	java -jar "$JAR" --workload "$WORKLOAD" --rate "$rate" "${SEED_ARGS[@]}" --policies "$POLICIES" \
		--out "$OUT/workload-$i" > "$OUT/workload-$i.log" 2>&1
	java -jar "$JAR" --trace "$CAPTURE" --speed "$speed" --warmup "${WARMUP:-0}" --flow-control false \
		--policies "$POLICIES" --out "$OUT/capture-$i" > "$OUT/capture-$i.log" 2>&1
	i=$((i + 1))
done

python3 - "$OUT" "$RUNS" "$POLICIES" "$WORKLOAD" "$RATE" "${SEED:-as in the file}" "$CAPTURE" "$SPEED" "$STEP" <<'EOF'
import json, statistics, sys
out, runs, policies, workload, rate, seed, capture, speed, step = sys.argv[1:]
runs, policies = int(runs), policies.split(',')

def p90(side, i, policy):
    return json.load(open(f'{out}/{side}-{i}/results.json'))['policies'][policy]['ttftP90Ms']

rows, medians = [], {}
for policy in policies:
    w = [p90('workload', i, policy) for i in range(runs)]
    c = [p90('capture', i, policy) for i in range(runs)]
    medians[policy] = (statistics.median(w), statistics.median(c))
    rows.append((policy, w, c))
rank = lambda side: [p for p, _ in sorted(medians.items(), key=lambda item: item[1][side])]
worst = max(abs(c / w - 1) for w, c in medians.values())
same = rank(0) == rank(1)
fmt = lambda xs: ', '.join(f'{x:.1f}' for x in xs)
lines = [
    f'Workload {workload} at {rate} requests/s, seed {seed}; capture {capture} at speed {speed}.',
    f'{runs} runs a side, arrival times scaled by 1 + k x {step}; TTFT p90 in ms.',
    '',
    '| policy | workload runs | capture runs | workload median | capture median | capture / workload |',
    '|---|---|---|---:|---:|---:|',
]
for policy, w, c in rows:
    mw, mc = medians[policy]
    flag = '**' if abs(mc / mw - 1) > 0.10 else ''
    lines.append(f'| {policy} | {fmt(w)} | {fmt(c)} | {mw:.1f} | {mc:.1f} | {flag}{mc / mw:.2f}{flag} |')
lines += ['',
          f'Ranking by median, best first: workload {", ".join(rank(0))}; capture {", ".join(rank(1))}.',
          f'Same ranking: {"yes" if same else "no"}; largest difference {worst:.1%} (bound 10%).']
text = '\n'.join(lines) + '\n'
open(f'{out}/trace-vs-workload.md', 'w').write(text)
print(text, end='')
sys.exit(0 if same and worst <= 0.10 else 1)
EOF
