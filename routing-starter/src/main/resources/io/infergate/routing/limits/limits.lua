-- One call carries what a gateway replica has waiting for Redis (see LimitsCall.java): first the releases of
-- finished requests, then check-and-reserve of a batch of requests, each against every limit it is subject to, in
-- the order given. The result is what the releases and then one call per request, one after the other, would have
-- given (see Gcra.java for the algorithm). Each counter is read once and written at most once per call.
-- KEYS: the counters, each once.
-- ARGV: lease timeout (µs), retry hint for max-parallel (µs);
--       then per key: kind (rpm | tpm | max-parallel), limit, m, and m values: for tpm, m = 1 and the summed token
--       correction of the releases (actual - reserved); for max-parallel, the m lease ids the releases end;
--       then per request: tokens, lease id, commit (1 reserve, 0 read only), n, the n indexes (into KEYS) of its
--       counters, and n wants: units of each counter to grant this replica's allowance besides the request (see
--       Allowances.java), at most half of what remains after it; granted only when the request is admitted and
--       committed. A max-parallel grant is that many leases named <lease id>:1, <lease id>:2, ...
-- Returns, per request: admitted (1|0), then per counter of the request: remaining before, remaining after,
--          reset before (µs), reset after (µs), retry after (µs, 0 unless this limit refuses), requested units,
--          units granted.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local period = 60000000
local leaseMicros = tonumber(ARGV[1])
local parallelRetry = tonumber(ARGV[2])

local kinds, limits, state, changed, leases = {}, {}, {}, {}, {}
local at = 3
for i = 1, #KEYS do
  local kind = ARGV[at]
  local limit = tonumber(ARGV[at + 1])
  local m = tonumber(ARGV[at + 2])
  kinds[i] = kind
  limits[i] = limit
  if kind == 'max-parallel' then
    if m > 0 then
      redis.call('ZREM', KEYS[i], unpack(ARGV, at + 3, at + 2 + m))
    end
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
    state[i] = redis.call('ZCARD', KEYS[i])
  else
    local tat = tonumber(redis.call('GET', KEYS[i])) or now
    if tat < now then tat = now end
    if m > 0 then
      local correction = tonumber(ARGV[at + 3])
      if correction ~= 0 then
        tat = math.max(now, tat + correction * period / limit)
        changed[i] = true
      end
    end
    state[i] = tat
  end
  at = at + 3 + m
end

local function remaining(tat, interval)
  local free = period - math.max(0, tat - now)
  if free <= 0 then return 0 end
  return math.floor(free / interval + 1e-9)
end

local out = {}
while at <= #ARGV do
  local tokens = tonumber(ARGV[at])
  local lease = ARGV[at + 1]
  local commit = ARGV[at + 2] == '1'
  local n = tonumber(ARGV[at + 3])
  local verdict = #out + 1
  out[verdict] = 1
  local admitted = 1
  local nexts = {}
  local grants = {}
  for j = 1, n do
    local i = tonumber(ARGV[at + 3 + j])
    local limit = limits[i]
    if kinds[i] == 'max-parallel' then
      local free = math.max(0, limit - state[i])
      local retry = 0
      if free <= 0 then
        retry = parallelRetry
        admitted = 0
      end
      out[#out + 1] = free
      out[#out + 1] = math.max(0, free - 1)
      out[#out + 1] = 0
      out[#out + 1] = 0
      out[#out + 1] = retry
      out[#out + 1] = 1
      grants[j] = #out + 1
      out[#out + 1] = 0
    else
      local interval = period / limit
      local cost = 1
      if kinds[i] == 'tpm' then cost = math.max(0, math.min(tokens, limit)) end
      local tat = state[i]
      local nxt = tat + cost * interval
      nexts[j] = nxt
      local retry = 0
      if nxt - now - period > 0 then
        retry = math.ceil(nxt - now - period)
        admitted = 0
      end
      out[#out + 1] = remaining(tat, interval)
      out[#out + 1] = remaining(nxt, interval)
      out[#out + 1] = math.ceil(tat - now)
      out[#out + 1] = math.ceil(nxt - now)
      out[#out + 1] = retry
      out[#out + 1] = cost
      grants[j] = #out + 1
      out[#out + 1] = 0
    end
  end
  out[verdict] = admitted
  if admitted == 1 and commit then
    for j = 1, n do
      local i = tonumber(ARGV[at + 3 + j])
      local want = tonumber(ARGV[at + 3 + n + j])
      if kinds[i] == 'max-parallel' then
        state[i] = state[i] + 1
        local held = leases[i] or {}
        held[#held + 1] = now + leaseMicros
        held[#held + 1] = lease
        local grant = math.min(want, math.floor(math.max(0, limits[i] - state[i]) / 2))
        for g = 1, grant do
          held[#held + 1] = now + leaseMicros
          held[#held + 1] = lease .. ':' .. g
        end
        leases[i] = held
        state[i] = state[i] + math.max(0, grant)
        out[grants[j]] = math.max(0, grant)
      else
        state[i] = nexts[j]
        changed[i] = true
        if want > 0 then
          local interval = period / limits[i]
          local grant = math.min(want, math.floor(remaining(state[i], interval) / 2))
          if grant > 0 then
            state[i] = state[i] + grant * interval
            out[grants[j]] = grant
          end
        end
      end
    end
  end
  at = at + 4 + 2 * n
end

for i = 1, #KEYS do
  if leases[i] then
    redis.call('ZADD', KEYS[i], unpack(leases[i]))
    redis.call('PEXPIRE', KEYS[i], math.ceil(leaseMicros / 1000))
  elseif changed[i] then
    if state[i] > now then
      redis.call('SET', KEYS[i], string.format('%.17g', state[i]), 'PX', math.ceil((state[i] - now) / 1000) + 1000)
    else
      redis.call('DEL', KEYS[i])
    end
  end
end
return out
