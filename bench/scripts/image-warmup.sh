#!/usr/bin/env bash
# The Infergate image with and without the gateway's AOT cache (the Dockerfile's AOT_CACHE): how long each takes,
# from `docker run`, to be ready and then to reach its full rate under load.
#
#   bench/scripts/image-warmup.sh                 # ROUNDS=3 LOAD_SECONDS=180
#
# Both images are built first from the packaged jars (.ci/local-images.sh, on infergate/jre:25-local unless
# INFERGATE_JRE says otherwise; BUILD=0 uses existing ones), then started in alternating rounds, the order swapped
# every round. Each start is a gateway container with host networking, its ports on 127.0.0.1, routing pool 'bench'
# to two zero-latency simulators (model-server-sim.jar on loopback, started once for the whole run):
#
#   time to ready  from just before `docker run` to the first 200 of /actuator/health/readiness on the management
#                  port (polled every 0.1 s; readiness is UP once each simulator's metrics have been scraped);
#   curve          then requests/s of non-streamed chat completions (bench/wrk/chat-completion.lua, THREADS
#                  threads, CONNECTIONS connections) in consecutive 5 s wrk runs for LOAD_SECONDS;
#   plateau        the median of the curve's last PLATEAU_WINDOWS windows (4: its last 20 s);
#   time to peak   the end of the first window at 95% of that plateau or more, in seconds of load; "total" adds the
#                  time to ready: from `docker run` to full speed.
#
# Prints every round, then the medians per image and their ratios (AOT cache / none). One untimed start of each image
# comes first, so both read their files from the page cache. The run holds LOCK (/tmp/mvn.lock) throughout: builds
# sharing the machine take the same lock, and none runs during a measurement.
# Environment: ROUNDS (3), LOAD_SECONDS (180), PLATEAU_WINDOWS (4), BUILD (1), IMAGE_AOT (infergate/infergate:aot-cache),
# IMAGE_NONE (infergate/infergate:no-aot-cache), JAVA_OPTS (the containers' JAVA_OPTS; unset, the image's default),
# LOCK, THREADS (2), CONNECTIONS (64).
set -euo pipefail
cd "$(dirname "$0")/../.."

LOCK=${LOCK:-/tmp/mvn.lock}
if [ -z "${IMAGE_WARMUP_LOCKED:-}" ]; then
	echo "waiting for $LOCK ..." >&2
	IMAGE_WARMUP_LOCKED=1 exec flock -o "$LOCK" "$0" "$@"
fi

ROUNDS=${ROUNDS:-3}
LOAD_SECONDS=${LOAD_SECONDS:-180}
PLATEAU_WINDOWS=${PLATEAU_WINDOWS:-4}
BUILD=${BUILD:-1}
IMAGE_AOT=${IMAGE_AOT:-infergate/infergate:aot-cache}
IMAGE_NONE=${IMAGE_NONE:-infergate/infergate:no-aot-cache}
SIM_PORT=19601
API_PORT=19610
MANAGEMENT_PORT=19611
CONTAINER=infergate-image-warmup

source bench/scripts/lib/gateway-rounds.sh # start_sims, rounds_cleanup, THREADS, CONNECTIONS; needs wrk
source .ci/docker.sh
ensure_docker

work=$(mktemp -d)
cleanup() {
	docker rm -f "$CONTAINER" >/dev/null 2>&1 || true
	rounds_cleanup
	rm -rf "$work"
}
trap cleanup EXIT

if [ "$BUILD" = 1 ]; then
	INFERGATE_IMAGE=$IMAGE_AOT AOT_CACHE=true .ci/local-images.sh infergate
	INFERGATE_IMAGE=$IMAGE_NONE AOT_CACHE=false .ci/local-images.sh infergate
fi
for image in "$IMAGE_AOT" "$IMAGE_NONE"; do
	docker image inspect "$image" >/dev/null || { echo "no image $image (BUILD=1 builds it)" >&2; exit 1; }
done
docker run --rm --entrypoint sh "$IMAGE_AOT" -c 'test -s /app/gateway/gateway.aot' \
	|| { echo "$IMAGE_AOT has no AOT cache" >&2; exit 1; }
docker run --rm --entrypoint sh "$IMAGE_NONE" -c 'test ! -e /app/gateway/gateway.aot' \
	|| { echo "$IMAGE_NONE has an AOT cache" >&2; exit 1; }

start_sims "$SIM_PORT" 2

# start IMAGE: starts the gateway container and waits for readiness; prints the seconds that took
start() {
	local image=$1 started now env=()
	[ -z "${JAVA_OPTS:-}" ] || env=(-e "JAVA_OPTS=$JAVA_OPTS")
	started=$(date +%s.%N)
	docker run -d --rm --network host --name "$CONTAINER" "${env[@]}" "$image" gateway \
		--server.address=127.0.0.1 --server.port="$API_PORT" \
		--management.server.address=127.0.0.1 --management.server.port="$MANAGEMENT_PORT" \
		--infergate.pools.bench.endpoints="$SIM_URLS" --logging.level.root=WARN >/dev/null
	for _ in $(seq 1 1200); do
		if curl -sf -o /dev/null "http://127.0.0.1:$MANAGEMENT_PORT/actuator/health/readiness"; then
			now=$(date +%s.%N)
			awk -v a="$started" -v b="$now" 'BEGIN { printf "%.2f\n", b - a }'
			return 0
		fi
		sleep 0.1
	done
	echo "$image was not ready within 2 minutes; its log:" >&2
	docker logs --tail 30 "$CONTAINER" >&2 || true
	exit 1
}

stop() {
	docker stop -t 10 "$CONTAINER" >/dev/null
	# --rm: gone once stopped
	while docker container inspect "$CONTAINER" >/dev/null 2>&1; do sleep 0.2; done
}

# curve: requests/s in consecutive 5 s windows for LOAD_SECONDS, space-separated
curve() {
	local rates=()
	for _ in $(seq 5 5 "$LOAD_SECONDS"); do
		rates+=("$(wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s bench/wrk/chat-completion.lua "http://127.0.0.1:$API_PORT" \
			| awk '/Requests\/sec/ { print $2 }')")
	done
	echo "${rates[*]}"
}

echo "image-warmup: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  aot:  $IMAGE_AOT ($(docker image inspect --format '{{.Id}}' "$IMAGE_AOT" | cut -c8-19))"
echo "  none: $IMAGE_NONE ($(docker image inspect --format '{{.Id}}' "$IMAGE_NONE" | cut -c8-19))"
echo "  ${ROUNDS} rounds, ${LOAD_SECONDS} s of load each (wrk -t$THREADS -c$CONNECTIONS, non-streamed), 2 simulators"

for image in "$IMAGE_AOT" "$IMAGE_NONE"; do
	start "$image" >/dev/null
	stop
done

results=$work/results
echo "variant round ready_s requests/s_per_5s_window..."
for round in $(seq 1 "$ROUNDS"); do
	if [ $((round % 2)) = 1 ]; then order="aot none"; else order="none aot"; fi
	for variant in $order; do
		if [ "$variant" = aot ]; then image=$IMAGE_AOT; else image=$IMAGE_NONE; fi
		ready=$(start "$image")
		rates=$(curve)
		stop
		echo "$variant $round $ready $rates" | tee -a "$results"
	done
done

python3 - "$results" "$PLATEAU_WINDOWS" <<'PY'
import statistics, sys
path, plateau_windows = sys.argv[1], int(sys.argv[2])
runs = {}
for line in open(path):
    variant, _, ready, *rates = line.split()
    rates = [float(r) for r in rates]
    plateau = statistics.median(rates[-plateau_windows:])
    peak = next(5 * (i + 1) for i, r in enumerate(rates) if r >= 0.95 * plateau)
    runs.setdefault(variant, []).append((float(ready), peak, float(ready) + peak, plateau, rates))
print()
print("per round: ready (s), time to peak under load (s), total from docker run (s), plateau (requests/s)")
for variant in ("aot", "none"):
    for ready, peak, total, plateau, _ in runs[variant]:
        print(f"  {variant:4} {ready:6.2f} {peak:4d} {total:7.2f} {plateau:7.0f}")
print()
med = {}
for variant in ("aot", "none"):
    r = runs[variant]
    med[variant] = [statistics.median(x[i] for x in r) for i in range(4)]
    curve = [statistics.median(x[4][i] for x in r) for i in range(len(r[0][4]))]
    print(f"median {variant} ({len(r)} rounds): ready {med[variant][0]:.2f} s, peak after {med[variant][1]:.1f} s of load, "
          f"{med[variant][2]:.2f} s from docker run, plateau {med[variant][3]:.0f} requests/s")
    print(f"  curve (median per 5 s window): {' '.join(f'{c:.0f}' for c in curve)}")
a, n = med["aot"], med["none"]
print(f"aot/none: ready {a[0] / n[0]:.2f}x, time to peak under load {a[1] / n[1]:.2f}x, "
      f"from docker run to peak {a[2] / n[2]:.2f}x, plateau {a[3] / n[3]:.2f}x")
PY
