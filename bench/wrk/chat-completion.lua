-- wrk script: non-streaming chat completions with a small max_tokens, for measuring the simulator's HTTP layer.
-- Usage: wrk -t2 -c64 -d15s --latency -s bench/wrk/chat-completion.lua http://127.0.0.1:18000
wrk.method = "POST"
wrk.path = "/v1/chat/completions"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"model":"bench-model","max_tokens":8,"stream":false,'
	.. '"messages":[{"role":"system","content":"You are a helpful assistant."},'
	.. '{"role":"user","content":"Name three prime numbers."}]}'
