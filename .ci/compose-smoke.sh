#!/usr/bin/env bash
# Compose smoke test: docker-compose.yml with docker-compose.local.yml (local images, host networking on
# 127.0.0.1), brought up without Grafana (no local image: Grafana is not packaged in Debian). It validates both
# compose configurations, starts the gateway, the four pods, Redis, PostgreSQL and Prometheus, sends a chat completion
# through the gateway, checks that Prometheus scraped Infergate's series and the pods', that the usage ledger wrote
# the completion to PostgreSQL (its API, after the batch was written), and tears everything down.
# Needs the packaged jars (./mvnw -B -DskipTests package). Takes about a minute once the images exist.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/docker.sh

PROJECT=infergate-smoke
COMPOSE=(docker-compose -p "$PROJECT" -f docker-compose.yml -f docker-compose.local.yml)
GATEWAY=http://127.0.0.1:18080
MANAGEMENT=http://127.0.0.1:18081
PROMETHEUS=http://127.0.0.1:19090
passed=0
failed=0

check() {
  local name=$1
  shift
  if "$@"; then
    echo "  ok: $name"
    passed=$((passed + 1))
  else
    echo "  FAILED: $name"
    failed=$((failed + 1))
  fi
}

# Retries a command once a second for up to $1 seconds.
eventually() {
  local seconds=$1
  shift
  local i
  for ((i = 0; i < seconds; i++)); do
    "$@" && return 0
    sleep 1
  done
  return 1
}

teardown() {
  if [ "$failed" -gt 0 ] || [ "${1:-}" = failed ]; then
    "${COMPOSE[@]}" ps || true
    "${COMPOSE[@]}" logs --tail=40 gateway prometheus || true
  fi
  "${COMPOSE[@]}" down --volumes --remove-orphans --timeout 5 >/dev/null 2>&1 || true
}

ensure_docker
.ci/local-images.sh

echo "compose smoke:"
check "docker-compose.yml (with its override) is valid" docker-compose -f docker-compose.yml -f docker-compose.override.yml config -q
check "docker-compose.yml with docker-compose.local.yml is valid" "${COMPOSE[@]}" config -q

for port in 18080 18081 18001 18002 18003 18004 16379 15432 19090; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port on 127.0.0.1 is taken; the smoke test needs it" >&2
    exit 1
  fi
done

trap 'teardown failed' ERR INT TERM
"${COMPOSE[@]}" up -d --no-build gateway pod-1 pod-2 pod-3 pod-4 redis postgres prometheus

ready() { curl -fsS -o /dev/null "$MANAGEMENT/actuator/health/readiness"; }
check "gateway ready (every pod scraped)" eventually 120 ready

completion=$(mktemp)
chat() {
  curl -sS -o "$completion" -D "$completion.headers" -w '%{http_code}' "$GATEWAY/v1/chat/completions" \
    -H 'content-type: application/json' \
    -d '{"model":"llama-3.1-8b","messages":[{"role":"user","content":"Hello"}],"max_tokens":8}' | grep -qx 200 \
    && grep -q '"choices"' "$completion" \
    && grep -qi '^x-infergate-endpoint: 127.0.0.1:1800[1-4]' "$completion.headers"
}
check "chat completion through the gateway, served by a pod" chat
head -c 300 "$completion"; echo

# A query's result is non-empty once Prometheus has scraped the series.
scraped() {
  curl -fsS --get "$PROMETHEUS/api/v1/query" --data-urlencode "query=$1" | grep -q '"result":\[{'
}
check "Prometheus scraped the gateway (gen_ai_server_time_to_first_token_seconds)" eventually 60 scraped 'gen_ai_server_time_to_first_token_seconds_count{job="infergate",pool="llama",model="llama-3.1-8b"}'
check "Prometheus scraped the pods (vllm:num_requests_running)" eventually 30 scraped 'count(vllm:num_requests_running{job="model-servers"}) == 4'

# The usage API answers from PostgreSQL once the ledger wrote its batch (and from memory before): wait for the
# ledger's written-batch counter, then ask the API with the generated admin password from the gateway's log.
batch_written() {
  curl -fsS "$MANAGEMENT/actuator/prometheus" -u "admin:$(admin_password)" \
    | grep -E '^infergate_usage_ledger_batches_total\{.*outcome="written".*\} [1-9]' >/dev/null
}
admin_password() {
  "${COMPOSE[@]}" logs gateway 2>/dev/null | sed -n 's/.*generated password: \([^ ]*\) .*/\1/p' | tail -1
}
usage_recorded() {
  curl -fsS "$MANAGEMENT/admin/api/usage?group-by=model" -u "admin:$(admin_password)" \
    | grep -q '"model":"llama-3.1-8b","requests":1,'
}
check "the usage ledger wrote the completion to PostgreSQL" eventually 30 batch_written
check "the usage API counts it" usage_recorded

healthy() { [ "$(docker inspect --format '{{.State.Health.Status}}' "$("${COMPOSE[@]}" ps -q gateway)")" = healthy ]; }
check "gateway container healthy (the image's HEALTHCHECK)" eventually 60 healthy

trap - ERR INT TERM
teardown
rm -f "$completion" "$completion.headers"
echo "compose smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
