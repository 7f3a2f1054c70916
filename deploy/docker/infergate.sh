#!/bin/sh
# Entrypoint of the Infergate image.
#   gateway [--key=value ...]     the gateway (the default); arguments are Spring properties
#   simulator --model NAME [...]  the model-server simulator, listening on 0.0.0.0:8000 unless told otherwise
#   healthcheck                   the image's HEALTHCHECK: exit 0 when the running gateway or simulator is healthy
#   anything else                 run as a command
set -e

gateway() {
	# shellcheck disable=SC2086 # JAVA_OPTS holds several options
	exec java $JAVA_OPTS -cp /app/gateway org.springframework.boot.loader.launch.JarLauncher "$@"
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
			-cp /app/gateway/BOOT-INF/classes io.infergate.gateway.container.ContainerHealthCheck
		;;
	*)
		exec "$@"
		;;
esac
