-- Gives back what an admitted request holds: corrects its token counters by (actual - reserved) and ends its lease
-- on max-parallel counters (see Gcra.java).
-- KEYS: the request's tpm and max-parallel counters.
-- ARGV: actual tokens, lease id, then per key: kind (tpm | max-parallel), limit, tokens reserved.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local period = 60000000
local actual = tonumber(ARGV[1])
local lease = ARGV[2]
for i = 1, #KEYS do
  local kind = ARGV[3 * i]
  if kind == 'max-parallel' then
    redis.call('ZREM', KEYS[i], lease)
  else
    local interval = period / tonumber(ARGV[3 * i + 1])
    local reserved = tonumber(ARGV[3 * i + 2])
    local tat = tonumber(redis.call('GET', KEYS[i])) or now
    if tat < now then tat = now end
    local nxt = math.max(now, tat + (actual - reserved) * interval)
    if nxt > now then
      redis.call('SET', KEYS[i], string.format('%.17g', nxt), 'PX', math.ceil((nxt - now) / 1000) + 1000)
    else
      redis.call('DEL', KEYS[i])
    end
  end
end
return 1
