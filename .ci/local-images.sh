#!/usr/bin/env bash
# Builds the images docker-compose.local.yml runs, on a machine that cannot pull from a registry: each base is a
# root filesystem assembled from this machine's own JDKs and Debian packages and loaded with `docker import`.
#
#   infergate/jre:25-local        a JRE (jlink of the Temurin JDK 25), its libraries, busybox as /bin/sh
#   infergate/jre:17-local        the same from the Debian JDK 17 (target jre17)
#   infergate/infergate:local     the Dockerfile at the top level, built on the JRE 25 (needs the packaged jars);
#                                 with the gateway's AOT cache, the Dockerfile's default
#   infergate/prometheus:local    Debian's prometheus binary
#   infergate/redis:local         Debian's redis-server
#   infergate/postgres:local      Debian's PostgreSQL server (initdb on first start; POSTGRES_USER, POSTGRES_PASSWORD,
#                                 POSTGRES_DB and PGPORT as the public image reads them)
#   alpine:3.17                   busybox, which Testcontainers runs for its start-up checks
#
# Grafana is not packaged in Debian, so there is no local Grafana image: offline, compose runs without it.
# Usage: .ci/local-images.sh [--force] [jre|jre25|jre17|infergate|prometheus|redis|postgres|alpine ...]
# (default: the images docker-compose.local.yml needs; without --force, existing base images are kept)
# The target jre is the base of the target infergate. Environment for infergate: INFERGATE_JRE, its base
# (infergate/jre:25-local, or infergate/jre:17-local when JDK25_HOME holds no JDK 25), INFERGATE_IMAGE, its name
# (infergate/infergate:local), and AOT_CACHE (true or false: the Dockerfile's build argument; unset, its default).
set -euo pipefail
cd "$(dirname "$0")/.."

JDK17=${JDK17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
if [ -z "${INFERGATE_JRE:-}" ]; then
  INFERGATE_JRE=infergate/jre:25-local
  if [ ! -x "$JDK25/bin/java" ]; then
    # Debian bookworm packages no JDK 25: without one the image is built on Java 17, and without an AOT cache
    INFERGATE_JRE=infergate/jre:17-local
    jre_note="no JDK 25 at $JDK25 (set JDK25_HOME), so the base is $INFERGATE_JRE"
  fi
fi
INFERGATE_IMAGE=${INFERGATE_IMAGE:-infergate/infergate:local}
force=false
if [ "${1:-}" = "--force" ]; then
  force=true
  shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(jre infergate prometheus redis postgres)

need_image() {
  $force || ! docker image inspect "$1" >/dev/null 2>&1
}

# Copies each ELF file's shared libraries (per ldd), and the dynamic loader, into the root $1.
copy_libraries() {
  local root=$1
  shift
  local lib
  for lib in $(ldd "$@" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib/{print $1}' | sort -u); do
    case "$lib" in "$root"/*) continue ;; esac # found in the root itself (the JDK's own libraries)
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

# build_jre_base VERSION: infergate/jre:VERSION-local from the JDK of that version (17 or 25)
build_jre_base() {
  local version=$1 image="infergate/jre:$1-local" root jdk
  case "$version" in
    17) jdk=$JDK17 ;;
    25) jdk=$JDK25 ;;
    *) echo "no JDK $version to build $image from (17, 25)" >&2; return 1 ;;
  esac
  need_image "$image" || return 0
  [ -x "$jdk/bin/java" ] || { echo "$jdk has no JDK $version: set JDK${version}_HOME" >&2; return 1; }
  root=$(mktemp -d)
  local java="$root/opt/java/openjdk"
  # every runtime module, none of the JDK's development tools
  local exclude='jdk\.(compiler|javadoc|jshell|jdeps|jlink|jpackage|jartool|hotspot\.agent|editpad|jconsole|jdi|jstatd|graal\..*|incubator\..*|internal\.(ed|le|opt|vm\..*))'
  local modules
  if [ -d "$jdk/jmods" ]; then
    modules=$(ls "$jdk/jmods" | sed 's/\.jmod$//' | grep -vxE "$exclude" | paste -sd, -)
    "$jdk/bin/jlink" --module-path "$jdk/jmods" --add-modules "$modules" --strip-debug --no-man-pages \
      --no-header-files --compress=2 --output "$java"
  elif [ "$version" -ge 24 ] && modules=$("$jdk/bin/java" --list-modules | sed 's/@.*//' | grep -vxE "$exclude" | paste -sd, -) \
    && "$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
      --generate-cds-archive --output "$java" >/dev/null; then
    # a JDK without jmods links from its own run-time image (JEP 493, as Temurin 25 does); uncompressed, as the
    # Temurin JRE images are, with the default CDS archive regenerated for these modules
    :
  else
    # the whole JDK, less what only development needs
    rm -rf "$java"
    mkdir -p "$(dirname "$java")"
    cp -rL "$jdk" "$java"
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
  local args=(--build-arg "JRE_IMAGE=$INFERGATE_JRE") started=$SECONDS
  [ -z "${AOT_CACHE:-}" ] || args+=(--build-arg "AOT_CACHE=$AOT_CACHE")
  # the classic builder (docker.io 20.10 has no BuildKit client); the Dockerfile needs nothing more
  DOCKER_BUILDKIT=0 docker build -q "${args[@]}" -t "$INFERGATE_IMAGE" . >/dev/null
  echo "built $INFERGATE_IMAGE on $INFERGATE_JRE${AOT_CACHE:+, AOT_CACHE=$AOT_CACHE} ($((SECONDS - started)) s)"
}

# the base of the target infergate, when it is one of the local JREs
build_infergate_jre() {
  [ -z "${jre_note:-}" ] || { echo "$jre_note" >&2; jre_note=""; }
  case "$INFERGATE_JRE" in
    infergate/jre:17-local) build_jre_base 17 ;;
    infergate/jre:25-local) build_jre_base 25 ;;
  esac
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

build_postgres() {
  local image=infergate/postgres:local root bin share
  need_image "$image" || return 0
  bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/postgres | sort -V | tail -1)")
  share=/usr/share/postgresql/$(basename "$(dirname "$bin")")
  root=$(mktemp -d)
  base_files "$root"
  install_busybox "$root"
  printf 'postgres:x:999:999:PostgreSQL:/var/lib/postgresql:/bin/sh\n' >>"$root/etc/passwd"
  printf 'postgres:x:999:\n' >>"$root/etc/group"
  mkdir -p "$root$(dirname "$bin")" "$root/usr/share" "$root/var/lib/postgresql/data"
  cp -a "$(dirname "$bin")/." "$root$(dirname "$bin")/"
  mkdir -p "$root$(dirname "$share")"
  cp -a "$share" "$root$share"
  cp -a /usr/share/zoneinfo "$root/usr/share/zoneinfo"
  # without LLVM's JIT (libLLVM alone is over 100 MB): the server then runs without JIT
  rm -rf "$root$(dirname "$bin")"/lib/llvmjit* "$root$(dirname "$bin")"/lib/bitcode
  copy_libraries "$root" "$bin"/* $(find "$root$(dirname "$bin")/lib" -name '*.so' | sed "s|^$root||")
  # a named volume takes this directory's mode: the server (uid 999) creates its data directory inside
  chmod 1777 "$root/var/lib/postgresql" "$root/var/lib/postgresql/data"
  mkdir -p "$root/usr/local/bin"
  cat >"$root/usr/local/bin/postgres-entrypoint" <<ENTRYPOINT
#!/bin/sh
# initdb on first start, then the server in the foreground; extra arguments go to the server.
set -e
export PATH=$bin:/bin
PGDATA=\${PGDATA:-/var/lib/postgresql/data/pgdata}
user=\${POSTGRES_USER:-postgres}
if [ ! -s "\$PGDATA/PG_VERSION" ]; then
  mkdir -p "\$PGDATA"
  chmod 700 "\$PGDATA"
  if [ -n "\${POSTGRES_PASSWORD:-}" ]; then
    printf '%s\\n' "\$POSTGRES_PASSWORD" >/tmp/pwfile
    initdb -D "\$PGDATA" -U "\$user" -E UTF8 --locale=C --auth=scram-sha-256 --pwfile=/tmp/pwfile >/dev/null
    rm -f /tmp/pwfile
    echo "host all all all scram-sha-256" >>"\$PGDATA/pg_hba.conf"
  else
    initdb -D "\$PGDATA" -U "\$user" -E UTF8 --locale=C --auth=trust >/dev/null
    echo "host all all all trust" >>"\$PGDATA/pg_hba.conf"
  fi
  if [ -n "\${POSTGRES_DB:-}" ] && [ "\$POSTGRES_DB" != postgres ]; then
    echo "CREATE DATABASE \\"\$POSTGRES_DB\\" OWNER \\"\$user\\";" | postgres --single -D "\$PGDATA" postgres >/dev/null
  fi
fi
exec postgres -D "\$PGDATA" -p "\${PGPORT:-5432}" -c listen_addresses='*' -k /tmp "\$@"
ENTRYPOINT
  chmod 755 "$root/usr/local/bin/postgres-entrypoint"
  import_root "$root" "$image" \
    --change 'USER 999' \
    --change 'ENV PGDATA=/var/lib/postgresql/data/pgdata' \
    --change 'EXPOSE 5432' \
    --change 'ENTRYPOINT ["/usr/local/bin/postgres-entrypoint"]'
  rm -rf "$root"
}

missing=()
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
dpkg -s busybox-static >/dev/null 2>&1 || missing+=(busybox-static)   # static: runs in an empty rootfs
for target in "${targets[@]}"; do
  [ "$target" != postgres ] || ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

for target in "${targets[@]}"; do
  case "$target" in
    jre) build_infergate_jre ;;
    jre25) build_jre_base 25 ;;
    jre17) build_jre_base 17 ;;
    infergate) build_infergate_jre && build_infergate ;;
    prometheus) build_prometheus ;;
    redis) build_redis ;;
    postgres) build_postgres ;;
    alpine) build_alpine ;;
    *) echo "unknown image '$target' (jre, jre25, jre17, infergate, prometheus, redis, postgres, alpine)" >&2; exit 2 ;;
  esac
done
