# Docker for the checks that run containers. Source it, then call ensure_docker.
#
# ensure_docker: on a fresh Debian machine installs docker.io and docker-compose, starts dockerd in the
# background when no daemon answers, and waits until it does. Safe to call more than once.

ensure_docker() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker-compose >/dev/null 2>&1; then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends docker.io docker-compose
  fi
  if docker info >/dev/null 2>&1; then
    return 0
  fi
  echo "Starting dockerd (log: /tmp/dockerd.log)"
  $sudo sh -c 'nohup dockerd >/tmp/dockerd.log 2>&1 &'
  local waited=0
  until [ -S /var/run/docker.sock ] && docker info >/dev/null 2>&1; do
    if [ "$waited" -ge 60 ]; then
      echo "dockerd did not answer within 60 s:" >&2
      tail -n 30 /tmp/dockerd.log >&2 || true
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
}
