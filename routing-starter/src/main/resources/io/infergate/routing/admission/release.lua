-- Gives back what a batch of admitted requests holds: corrects each token counter by the batch's summed
-- (actual - reserved) tokens and ends the batch's leases on each max-parallel counter (see Gcra.java and
-- ReleaseBatch.java).
-- KEYS: the counters, each once.
-- ARGV, per key in order: 'tpm', limit, token correction; or 'max-parallel', n, then n lease ids.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local period = 60000000
local at = 1
for i = 1, #KEYS do
  local kind = ARGV[at]
  if kind == 'max-parallel' then
    local n = tonumber(ARGV[at + 1])
    redis.call('ZREM', KEYS[i], unpack(ARGV, at + 2, at + 1 + n))
    at = at + 2 + n
  else
    local interval = period / tonumber(ARGV[at + 1])
    local correction = tonumber(ARGV[at + 2])
    local tat = tonumber(redis.call('GET', KEYS[i])) or now
    if tat < now then tat = now end
    local nxt = math.max(now, tat + correction * interval)
    if nxt > now then
      redis.call('SET', KEYS[i], string.format('%.17g', nxt), 'PX', math.ceil((nxt - now) / 1000) + 1000)
    else
      redis.call('DEL', KEYS[i])
    end
    at = at + 3
  end
end
return 1
