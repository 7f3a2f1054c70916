-- Budgets: settles of finished requests, then one request's check-and-hold (or a read), atomically.
-- Each budget counter is a hash (s: spent, h: held, w: told it was reached; rolling budgets also o: the oldest
-- minute with spend, m<minute>: that minute's spend) and a sorted set of holds (member "<lease>:<nanos>", score: when
-- the hold expires, so a replica that dies cannot hold a budget forever). Amounts are integer nano-units.
--
-- ARGV: now (ms), minute now, settles; per settle: lines, then per line: key index, rolling, member, held, cost,
-- minute admitted, amount, ttl (ms). Then: "none" | "reserve" | "read"; for reserve or read: cost, lease, hold
-- expiry (ms), lines, then per line: key index, rolling, hard, amount, ttl (ms). KEYS[i] is a hash, KEYS[i + 1] its
-- holds.
--
-- Reply: per settled line, 1 when its spend reached the amount with this settle (else 0) and the spend; then for a
-- reserve or read: 0 when admitted (or read), else the 1-based line that refused; then per line: spent, held,
-- oldest minute with spend (rolling) or 0.

local now = tonumber(ARGV[1])
local minute = tonumber(ARGV[2])
local first = minute - 1439
local reply = {}

local function num(value)
  return tonumber(value or '0') or 0
end

local function int(value)
  return string.format('%.0f', value)
end

-- ends the holds of requests whose replica never settled them
local function expireHolds(key, holds)
  local gone = redis.call('ZRANGEBYSCORE', holds, '-inf', now)
  if #gone > 0 then
    local sum = 0
    for _, member in ipairs(gone) do
      sum = sum + num(string.match(member, ':(%d+)$'))
    end
    redis.call('ZREMRANGEBYSCORE', holds, '-inf', now)
    redis.call('HINCRBY', key, 'h', int(-sum))
  end
end

-- lets go of the spend of minutes more than 24 hours ago
local function expireMinutes(key, amount)
  local oldest = redis.call('HGET', key, 'o')
  if not oldest then
    return
  end
  oldest = tonumber(oldest)
  if oldest >= first then
    return
  end
  local spent = num(redis.call('HGET', key, 's'))
  local newOldest = nil
  if first - oldest >= 1440 then
    for _, field in ipairs(redis.call('HKEYS', key)) do
      if string.sub(field, 1, 1) == 'm' then
        redis.call('HDEL', key, field)
      end
    end
    spent = 0
  else
    for m = oldest, first - 1 do
      local value = redis.call('HGET', key, 'm' .. m)
      if value then
        spent = spent - tonumber(value)
        redis.call('HDEL', key, 'm' .. m)
      end
    end
    for m = first, minute do
      if redis.call('HEXISTS', key, 'm' .. m) == 1 then
        newOldest = m
        break
      end
    end
  end
  if newOldest then
    redis.call('HSET', key, 's', int(spent), 'o', newOldest)
  else
    redis.call('HSET', key, 's', int(spent))
    redis.call('HDEL', key, 'o')
  end
  if spent < amount then
    redis.call('HDEL', key, 'w')
  end
end

local at = 4
local settles = tonumber(ARGV[3])
for _ = 1, settles do
  local lines = tonumber(ARGV[at])
  at = at + 1
  for _ = 1, lines do
    local index = tonumber(ARGV[at])
    local rolling = ARGV[at + 1] == '1'
    local member = ARGV[at + 2]
    local held = tonumber(ARGV[at + 3])
    local cost = tonumber(ARGV[at + 4])
    local admittedMinute = tonumber(ARGV[at + 5])
    local amount = tonumber(ARGV[at + 6])
    local ttl = ARGV[at + 7]
    at = at + 8
    local key, holds = KEYS[index], KEYS[index + 1]
    if member ~= '' and redis.call('ZREM', holds, member) == 1 then
      redis.call('HINCRBY', key, 'h', int(-held))
    end
    local reached = 0
    local spent = num(redis.call('HGET', key, 's'))
    if rolling then
      expireMinutes(key, amount)
      spent = num(redis.call('HGET', key, 's'))
    end
    if cost > 0 and not (rolling and admittedMinute < first) then
      spent = redis.call('HINCRBY', key, 's', ARGV[at - 4])
      if rolling then
        redis.call('HINCRBY', key, 'm' .. admittedMinute, ARGV[at - 4])
        local oldest = redis.call('HGET', key, 'o')
        if not oldest or tonumber(oldest) > admittedMinute then
          redis.call('HSET', key, 'o', admittedMinute)
        end
      end
      if spent >= amount and redis.call('HSETNX', key, 'w', '1') == 1 then
        reached = 1
      end
      redis.call('PEXPIRE', key, ttl)
    end
    reply[#reply + 1] = reached
    reply[#reply + 1] = spent
  end
end

local mode = ARGV[at]
if mode == 'none' then
  return reply
end
local cost = tonumber(ARGV[at + 1])
local lease = ARGV[at + 2]
local expiry = tonumber(ARGV[at + 3])
local lines = tonumber(ARGV[at + 4])
at = at + 5
local verdict = #reply + 1
reply[verdict] = 0
local found = {}
for line = 1, lines do
  local index = tonumber(ARGV[at])
  local rolling = ARGV[at + 1] == '1'
  local hard = ARGV[at + 2] == '1'
  local amount = tonumber(ARGV[at + 3])
  local key, holds = KEYS[index], KEYS[index + 1]
  expireHolds(key, holds)
  if rolling then
    expireMinutes(key, amount)
  end
  local spent = num(redis.call('HGET', key, 's'))
  local held = num(redis.call('HGET', key, 'h'))
  local hold = 0
  if hard then
    hold = math.min(cost, amount)
  end
  found[line] = { index, hold, ARGV[at + 4] }
  reply[#reply + 1] = spent
  reply[#reply + 1] = held
  reply[#reply + 1] = num(redis.call('HGET', key, 'o'))
  if mode == 'reserve' and reply[verdict] == 0 and hard and spent + held + hold > amount then
    reply[verdict] = line
  end
  at = at + 5
end
if mode == 'reserve' and reply[verdict] == 0 then
  for line = 1, lines do
    local index, hold, ttl = found[line][1], found[line][2], found[line][3]
    if hold > 0 then
      redis.call('HINCRBY', KEYS[index], 'h', int(hold))
      redis.call('ZADD', KEYS[index + 1], expiry, lease .. ':' .. int(hold))
      redis.call('PEXPIRE', KEYS[index + 1], ttl)
      redis.call('PEXPIRE', KEYS[index], ttl)
      reply[verdict + 3 * line - 1] = reply[verdict + 3 * line - 1] + hold
    end
  end
end
return reply
