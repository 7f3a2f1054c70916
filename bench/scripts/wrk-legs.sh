# Shared by the wrk scripts: source it.
#
# wrk_leg NAME URL: one wrk run of bench/wrk/chat-completion.lua (THREADS, CONNECTIONS, DURATION) printing
#   "NAME requests/s p50 p99 non-2xx".
# await_ready URL LOG: waits up to 2 minutes for URL to answer 2xx; exits naming LOG if it never does.
# cpu_ticks PID...: the processes' user + system time so far, in clock ticks (getconf CLK_TCK per second).
# wrk_post_script FILE BODY [NAME=VALUE...]: writes a wrk script POSTing the JSON BODY to /v1/chat/completions, with
#   the extra headers given.

wrk_leg() {
	wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/wrk/chat-completion.lua "$2" \
		| awk -v name="$1" '
			/Requests\/sec/ { rps = $2 }
			$1 == "50%" { p50 = $2 }
			$1 == "99%" { p99 = $2 }
			/Non-2xx/ { errors = $NF }
			END { printf "%s %s %s %s %s\n", name, rps, p50, p99, (errors == "" ? 0 : errors) }'
}

await_ready() {
	for _ in $(seq 1 240); do
		curl -sf "$1" >/dev/null && return 0
		sleep 0.5
	done
	echo "$1 never answered; see $2" >&2
	exit 1
}

cpu_ticks() {
	local total=0 pid
	for pid in "$@"; do
		total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat")))
	done
	echo "$total"
}

wrk_post_script() {
	local file=$1 body=$2 header
	shift 2
	{
		echo 'wrk.method = "POST"'
		echo 'wrk.path = "/v1/chat/completions"'
		echo 'wrk.headers["Content-Type"] = "application/json"'
		for header in "$@"; do
			echo "wrk.headers[\"${header%%=*}\"] = \"${header#*=}\""
		done
		echo "wrk.body = '$body'"
	} >"$file"
}
