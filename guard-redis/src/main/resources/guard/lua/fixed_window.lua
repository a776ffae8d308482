--[[
FIXED_WINDOW: at most `rate` permits per window aligned on multiples of `interval` (so up to 2 * rate across a
boundary); one small hash per key.

KEYS[1]  window: hash; w = start of the current window in microseconds, c = permits taken in it; a key of another
         type is deleted and counts as absent (this limit's problem, not Redis being down)
ARGV[1]  now in microseconds, or "" to read the Redis server clock (TIME)
ARGV[2]  rate (permits per window)
ARGV[3]  interval (window length) in microseconds
ARGV[4]  permits requested (1..rate, checked by the caller)
ARGV[5]  expiry margin in milliseconds added to PEXPIRE
ARGV[6]  optional; "1" to peek: decide as usual but write nothing (no count, no expiry, no repair), so remaining is
         what is left before the request (the quota an operator inspects)

Returns  {allowed (1|0), remaining, retryAfter us, resetAfter us, now us}

Invariant: c <= rate for the window starting at w. The key expires when its window ends; a stored window that is
not the current one counts as empty, so a changed interval starts a fresh window.
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

local start = now - (now % interval)
local window_end = start + interval
local state = redis.pcall('HMGET', KEYS[1], 'w', 'c')
if state.err then
  if not string.find(state.err, 'WRONGTYPE', 1, true) then return redis.error_reply(state.err) end
  if not peek then redis.call('DEL', KEYS[1]) end
  state = {}
end
local count = 0
if tonumber(state[1]) == start then count = tonumber(state[2]) or 0 end

local allowed = count + permits <= rate
local retry = 0
if not allowed then
  retry = window_end - now
elseif not peek then
  count = count + permits
  redis.call('HSET', KEYS[1], 'w', int(start), 'c', int(count))
  redis.call('PEXPIRE', KEYS[1], math.ceil((window_end - now) / 1000) + margin)
end
local reset = 0
if count > 0 then reset = window_end - now end
return {allowed and 1 or 0, math.max(0, rate - count), retry, reset, now}
