#!/usr/bin/env bash
# Builds the images docker-compose.local.yml runs, on a machine that cannot pull from a registry: each base is a
# root filesystem assembled from this machine's own Debian packages and loaded with `docker import`.
#
#   infergate/jre:17-local        a JRE (jlink of the Debian JDK 17), its libraries, busybox as /bin/sh
#   infergate/infergate:local     the Dockerfile at the top level, built on that JRE (needs the packaged jars)
#   infergate/prometheus:local    Debian's prometheus binary
#   infergate/redis:local         Debian's redis-server
#   alpine:3.17                   busybox, which Testcontainers runs for its start-up checks
#
# Grafana is not packaged in Debian, so there is no local Grafana image: offline, compose runs without it.
# Usage: .ci/local-images.sh [--force] [jre|infergate|prometheus|redis|alpine ...]
# (default: the images docker-compose.local.yml needs; without --force, existing base images are kept)
set -euo pipefail
cd "$(dirname "$0")/.."

JDK=${JDK17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
force=false
if [ "${1:-}" = "--force" ]; then
  force=true
  shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(jre infergate prometheus redis)

need_image() {
  $force || ! docker image inspect "$1" >/dev/null 2>&1
}

# Copies each ELF file's shared libraries (per ldd), and the dynamic loader, into the root $1.
copy_libraries() {
  local root=$1
  shift
  local lib
  for lib in $(ldd "$@" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib/{print $1}' | sort -u); do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
}

# A minimal /etc and /tmp: root, nobody, and name resolution from /etc/hosts then DNS.
base_files() {
  local root=$1
  mkdir -p "$root/etc" "$root/tmp" "$root/bin"
  chmod 1777 "$root/tmp"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
  printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
}

# busybox as /bin/sh and every other applet.
install_busybox() {
  local root=$1 applet
  mkdir -p "$root/bin"
  cp /bin/busybox "$root/bin/busybox"
  for applet in $(/bin/busybox --list); do
    [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
  done
}

import_root() {
  local root=$1 image=$2
  shift 2
  tar -C "$root" --numeric-owner --owner=0 --group=0 -c . | docker import "$@" - "$image" >/dev/null
  echo "built $image ($(du -sh "$root" | cut -f1))"
}

build_jre_base() {
  local image=infergate/jre:17-local root
  need_image "$image" || return 0
  root=$(mktemp -d)
  local java="$root/opt/java/openjdk"
  if [ -d "$JDK/jmods" ]; then
    # every runtime module, none of the JDK's development tools
    local modules
    modules=$(ls "$JDK/jmods" | sed 's/\.jmod$//' \
      | grep -vxE 'jdk\.(compiler|javadoc|jshell|jdeps|jlink|jpackage|jartool|hotspot\.agent|editpad|jconsole|jdi|jstatd|incubator\..*|internal\.(ed|le|opt|vm\..*))' \
      | paste -sd, -)
    "$JDK/bin/jlink" --module-path "$JDK/jmods" --add-modules "$modules" --strip-debug --no-man-pages \
      --no-header-files --compress=2 --output "$java"
  else
    mkdir -p "$(dirname "$java")"
    cp -rL "$JDK" "$java"
    rm -rf "$java/jmods" "$java/include" "$java/man" "$java/docs" "$java/lib/src.zip"
  fi
  [ -f /etc/ssl/certs/java/cacerts ] && cp -L /etc/ssl/certs/java/cacerts "$java/lib/security/cacerts"
  copy_libraries "$root" "$java"/bin/* $(find "$java/lib" -name '*.so')
  base_files "$root"
  install_busybox "$root"
  import_root "$root" "$image" \
    --change 'ENV JAVA_HOME=/opt/java/openjdk' \
    --change 'ENV PATH=/opt/java/openjdk/bin:/usr/bin:/bin' \
    --change 'CMD ["java", "-version"]'
  rm -rf "$root"
}

build_alpine() {
  local image=alpine:3.17 root
  need_image "$image" || return 0
  root=$(mktemp -d)
  mkdir -p "$root/tmp"
  chmod 1777 "$root/tmp"
  install_busybox "$root"
  import_root "$root" "$image" --change 'CMD ["/bin/sh"]'
  rm -rf "$root"
}

build_infergate() {
  local jar
  for jar in gateway-app/target/gateway-app.jar model-server-sim/target/model-server-sim.jar; do
    [ -f "$jar" ] || { echo "$jar is missing: run ./mvnw -B -q -DskipTests package first" >&2; return 1; }
  done
  # the classic builder (docker.io 20.10 has no BuildKit client); the Dockerfile needs nothing more
  DOCKER_BUILDKIT=0 docker build -q --build-arg JRE_IMAGE=infergate/jre:17-local -t infergate/infergate:local . >/dev/null
  echo "built infergate/infergate:local"
}

build_prometheus() {
  local image=infergate/prometheus:local root
  need_image "$image" || return 0
  root=$(mktemp -d)
  base_files "$root"
  cp /usr/bin/prometheus "$root/bin/prometheus"
  copy_libraries "$root" /usr/bin/prometheus
  mkdir -p "$root/prometheus" "$root/etc/prometheus"
  chmod 1777 "$root/prometheus"
  import_root "$root" "$image" \
    --change 'USER 65534' \
    --change 'WORKDIR /prometheus' \
    --change 'ENTRYPOINT ["/bin/prometheus"]' \
    --change 'CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]'
  rm -rf "$root"
}

build_redis() {
  local image=infergate/redis:local root
  need_image "$image" || return 0
  root=$(mktemp -d)
  base_files "$root"
  mkdir -p "$root/usr/bin" "$root/data"
  chmod 1777 "$root/data"
  cp /usr/bin/redis-server "$root/usr/bin/redis-server"
  copy_libraries "$root" /usr/bin/redis-server
  import_root "$root" "$image" \
    --change 'WORKDIR /data' \
    --change 'EXPOSE 6379' \
    --change 'ENTRYPOINT ["/usr/bin/redis-server"]'
  rm -rf "$root"
}

missing=()
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
dpkg -s busybox-static >/dev/null 2>&1 || missing+=(busybox-static)   # static: runs in an empty rootfs
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

for target in "${targets[@]}"; do
  case "$target" in
    jre) build_jre_base ;;
    infergate) build_jre_base && build_infergate ;;
    prometheus) build_prometheus ;;
    redis) build_redis ;;
    alpine) build_alpine ;;
    *) echo "unknown image '$target' (jre, infergate, prometheus, redis, alpine)" >&2; exit 2 ;;
  esac
done
