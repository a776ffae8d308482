--[[
SLIDING_LOG: never more than `rate` permits in ANY window of length `interval`.

KEYS[1]  log:   sorted set, one member per successful acquisition; score = acquisition time in microseconds,
                member = "<seq>" (1 permit) or "<seq>:<permits>", seq a per-key sequence (unique, compact)
KEYS[2]  state: hash; u = permits currently in use (sum over the log), n = last sequence number,
                t = time of the newest record (for resetAfter without reading the log)
ARGV[1]  now in microseconds, or "" to read the Redis server clock (TIME)
ARGV[2]  rate (permits per interval)
ARGV[3]  interval in microseconds
ARGV[4]  permits requested (1..rate, checked by the caller)
ARGV[5]  expiry margin in milliseconds added to every PEXPIRE
ARGV[6]  optional; "1" to peek: decide as usual but write nothing (expired records stay, nothing is repaired or
         recorded), so remaining is what is left before the request (the quota an operator inspects)

Returns  {allowed (1|0), remaining, retryAfter us, resetAfter us, now us}

Invariant: u = sum of the permits of the records in the log. A record taken at t stops counting at t + interval,
so after this script the permits with t > now - interval sum to at most `rate`. Both keys expire together once
the newest record stops counting, and every path that writes a key sets its expiry.

Either key may vanish alone (eviction, a manual DEL, expiry): the log is the truth and the state a summary of it, so
a lost state is rebuilt by summing the log, and a lost log means nothing is in use. A key of another type is
deleted and counts as lost: it is this limit's problem, never an error that would look like Redis being down. So a
refusal always finds the records that free its permits, and its retryAfter is never 0.

Cost: a log whose records all expired (t <= now - interval) is dropped with UNLINK, O(1) in the script; records
that expire while newer ones still count are read and summed one by one (each may hold several permits). The policy arrives with every call, so a new rate or interval applies to the
permits already in use.
]]
local function int(x) return string.format('%d', x) end

local now
if ARGV[1] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[1])
end
local rate, interval, permits = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local margin = tonumber(ARGV[5])
local peek = ARGV[6] == '1'

local function parse(member)
  local sep = string.find(member, ':', 1, true)
  if sep then
    return tonumber(string.sub(member, 1, sep - 1)), tonumber(string.sub(member, sep + 1))
  end
  return tonumber(member), 1
end

-- Reads a key with pcall: a key of another type is deleted and read as absent.
local function read(key, ...)
  local reply = redis.pcall(...)
  if type(reply) == 'table' and reply.err then
    if not string.find(reply.err, 'WRONGTYPE', 1, true) then return redis.call(...) end -- raises it again
    if not peek then redis.call('DEL', key) end
    return nil
  end
  return reply
end

local state = read(KEYS[2], 'HMGET', KEYS[2], 'u', 'n', 't') or {}
local records = read(KEYS[1], 'ZCARD', KEYS[1])
if records == nil and peek then
  -- A log of another type counts as lost, and a peek may not delete it: nothing is in use.
  return {1, rate, 0, 0, now}
end
records = records or 0
local used, seq, newest = tonumber(state[1]), tonumber(state[2]), tonumber(state[3])
local rebuilt = false
if records == 0 and used ~= nil and used ~= 0 then
  -- The log was lost while the state survived: nothing is in use any more.
  used, newest, rebuilt = 0, 0, true
end
if used == nil or seq == nil or newest == nil then
  rebuilt = true
  -- First call, or the state was lost while the log survived: rebuild it by summing permits, not records.
  used, seq, newest = 0, 0, 0
  local all = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  for i = 1, #all, 2 do
    local s, p = parse(all[i])
    used = used + p
    if s > seq then seq = s end
    local at = tonumber(all[i + 1])
    if at > newest then newest = at end
  end
end

-- The oldest record tells whether anything expired, and is where a refusal's walk starts: one read for both.
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local expired = 0
-- Records before the cutoff that a peek leaves in place: the walk below starts after them.
local skip = 0
if #oldest > 0 and newest <= now - interval then
  -- Every record expired (a busy key resuming after a quiet spell): drop the log in O(1) and let Redis free it in
  -- the background, rather than walking up to `rate` records while every other client waits.
  if not peek then redis.call('UNLINK', KEYS[1]) end
  used, expired, oldest = 0, 1, nil
elseif #oldest > 0 and tonumber(oldest[2]) <= now - interval then
  local cutoff = int(now - interval)
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', cutoff)) do
    local _, p = parse(member)
    used = used - p
    expired = expired + 1
  end
  if peek then skip = expired else redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff) end
  oldest = nil
end

local allowed = used + permits <= rate
local retry = 0
if allowed and not peek then
  seq = seq + 1
  local member = int(seq)
  if permits ~= 1 then member = member .. ':' .. int(permits) end
  redis.call('ZADD', KEYS[1], int(now), member)
  used = used + permits
  if now > newest then newest = now end
  local ttl = math.ceil(interval / 1000) + margin
  redis.call('HSET', KEYS[2], 'u', int(used), 'n', int(seq), 't', int(newest))
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
elseif not allowed then
  if (expired > 0 or rebuilt) and not peek then
    -- The whole hash, with its expiry: this write may be the one that recreates it.
    redis.call('HSET', KEYS[2], 'u', int(used), 'n', int(seq), 't', int(newest))
    redis.call('PEXPIRE', KEYS[2], math.ceil((newest + interval - now) / 1000) + margin)
  end
  -- Walk the records oldest first until enough permits have expired for this request. The oldest record
  -- usually suffices, so read it alone first and then batches of growing size.
  local need = used + permits - rate
  local freed, start, size, found = 0, skip, 1, false
  while not found do
    local batch = oldest
    if start > 0 or batch == nil then
      batch = redis.call('ZRANGE', KEYS[1], start, start + size - 1, 'WITHSCORES')
    end
    if #batch == 0 then break end
    for i = 1, #batch, 2 do
      local _, p = parse(batch[i])
      freed = freed + p
      if freed >= need then
        retry = tonumber(batch[i + 1]) + interval - now
        found = true
        break
      end
    end
    start = start + size
    size = math.min(size * 8, 512)
  end
end

local reset = 0
if used > 0 then reset = math.max(0, newest + interval - now) end
return {allowed and 1 or 0, math.max(0, rate - used), math.ceil(retry), math.ceil(reset), now}
