#!/bin/sh
# Entrypoint of the Infergate image.
#   gateway [--key=value ...]     the gateway (the default); arguments are Spring properties
#   simulator --model NAME [...]  the model-server simulator, listening on 0.0.0.0:8000 unless told otherwise
#   healthcheck                   the image's HEALTHCHECK: exit 0 when the running gateway or simulator is healthy
#   anything else                 run as a command
# The gateway starts from the image's AOT cache when the image has one (JDK 25; see the Dockerfile);
# JAVA_OPTS="... -XX:AOTMode=off" starts it without.
set -e

gateway() {
	aot_cache=""
	[ -f /app/gateway/gateway.aot ] && aot_cache="-XX:AOTCache=/app/gateway/gateway.aot"
	# shellcheck disable=SC2086 # JAVA_OPTS holds several options
	exec java $aot_cache $JAVA_OPTS -jar /app/gateway/gateway-app.jar "$@"
}

case "${1:-gateway}" in
	gateway)
		[ $# -gt 0 ] && shift
		gateway "$@"
		;;
	-*)
		gateway "$@"
		;;
	simulator)
		shift
		# shellcheck disable=SC2086
		exec java $JAVA_OPTS -jar /app/model-server-sim.jar --host 0.0.0.0 --port 8000 "$@"
		;;
	healthcheck)
		# a short-lived JVM: no JIT beyond C1, a small heap
		exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx24m -Xss256k \
			-cp /app/gateway/gateway-app.jar io.infergate.gateway.container.ContainerHealthCheck
		;;
	*)
		exec "$@"
		;;
esac
