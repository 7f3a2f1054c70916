-- wrk script: the requests of chat-completion.lua, sent with an API key (API_KEY, default sk-bench).
-- Usage: API_KEY=sk-bench wrk -t2 -c32 -d20s --latency -s bench/wrk/chat-completion-with-key.lua http://127.0.0.1:18282
dofile("bench/wrk/chat-completion.lua")
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("API_KEY") or "sk-bench")
