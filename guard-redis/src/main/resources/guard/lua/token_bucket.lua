--[[
TOKEN_BUCKET as GCRA (generic cell rate algorithm): one timestamp per key, O(1) time and memory.

KEYS[1]  tat: string, the theoretical arrival time in microseconds (may carry a fraction); the bucket is full
              whenever tat <= now, and each permit pushes tat by the emission interval T = interval / rate
ARGV[1]  now in microseconds, or "" to read the Redis server clock (TIME)
ARGV[2]  rate (permits per interval)
ARGV[3]  interval in microseconds
ARGV[4]  permits requested (1..burst, checked by the caller)
ARGV[5]  burst (the most permits that can be taken at once)
ARGV[6]  expiry margin in milliseconds added to PEXPIRE

Returns  {allowed (1|0), remaining, retryAfter us, resetAfter us, now us}

Invariant: after an admission, tat - now <= burst * T, so over any period d at most burst + d / T permits are
granted. The key expires when the bucket is full again (tat <= now), after which its absence means "full".
]]
local now
if ARGV[1] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[1])
end
local rate, interval, permits = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local burst, margin = tonumber(ARGV[5]), tonumber(ARGV[6])

local emission = interval / rate
local tolerance = emission * burst
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local candidate = tat + permits * emission
-- Half a microsecond of slack absorbs floating-point rounding of fractional emission intervals.
local allowed = candidate - now <= tolerance + 0.5
local retry = 0
if allowed then
  tat = candidate
  local ttl = math.ceil((tat - now) / 1000) + margin
  redis.call('SET', KEYS[1], string.format('%.17g', tat), 'PX', ttl)
else
  retry = math.ceil(candidate - now - tolerance - 0.5)
  if retry < 1 then retry = 1 end
end
local remaining = math.floor((tolerance - (tat - now)) / emission + 1e-9)
if remaining < 0 then remaining = 0 end
return {allowed and 1 or 0, remaining, retry, math.ceil(tat - now), now}
