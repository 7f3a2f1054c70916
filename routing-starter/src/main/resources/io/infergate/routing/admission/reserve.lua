-- Atomic check-and-reserve of one request against every limit it is subject to (see Gcra.java for the algorithm).
-- KEYS: one counter per limit.
-- ARGV: tokens, lease id, lease timeout (µs), retry hint for max-parallel (µs), commit (1 reserve, 0 read only),
--       then per key: kind (rpm | tpm | max-parallel), limit.
-- Returns: admitted (1|0), then per key: remaining before, remaining after, reset before (µs), reset after (µs),
--          retry after (µs, 0 unless this limit refuses), requested units.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local period = 60000000
local tokens = tonumber(ARGV[1])
local lease = ARGV[2]
local leaseMicros = tonumber(ARGV[3])
local parallelRetry = tonumber(ARGV[4])
local commit = ARGV[5] == '1'
local out = { 1 }
local nexts = {}
local admitted = 1

local function remaining(tat, interval)
  local free = period - math.max(0, tat - now)
  if free <= 0 then return 0 end
  return math.floor(free / interval + 1e-9)
end

for i = 1, #KEYS do
  local kind = ARGV[4 + 2 * i]
  local limit = tonumber(ARGV[5 + 2 * i])
  if kind == 'max-parallel' then
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
    local free = math.max(0, limit - redis.call('ZCARD', KEYS[i]))
    local retry = 0
    if free <= 0 then
      retry = parallelRetry
      admitted = 0
    end
    for _, v in ipairs({ free, math.max(0, free - 1), 0, 0, retry, 1 }) do table.insert(out, v) end
  else
    local interval = period / limit
    local cost = 1
    if kind == 'tpm' then cost = math.max(0, math.min(tokens, limit)) end
    local tat = tonumber(redis.call('GET', KEYS[i])) or now
    if tat < now then tat = now end
    local nxt = tat + cost * interval
    nexts[i] = nxt
    local retry = 0
    if nxt - now - period > 0 then
      retry = math.ceil(nxt - now - period)
      admitted = 0
    end
    for _, v in ipairs({ remaining(tat, interval), remaining(nxt, interval), math.ceil(tat - now),
        math.ceil(nxt - now), retry, cost }) do table.insert(out, v) end
  end
end

if admitted == 1 and commit then
  for i = 1, #KEYS do
    if ARGV[4 + 2 * i] == 'max-parallel' then
      redis.call('ZADD', KEYS[i], now + leaseMicros, lease)
      redis.call('PEXPIRE', KEYS[i], math.ceil(leaseMicros / 1000))
    else
      redis.call('SET', KEYS[i], string.format('%.17g', nexts[i]), 'PX', math.ceil((nexts[i] - now) / 1000) + 1000)
    end
  end
end
out[1] = admitted
return out
