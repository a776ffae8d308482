--[[
TOKEN_BUCKET as GCRA (generic cell rate algorithm): one timestamp per key, O(1) time and memory, exact for every
rate the policy accepts.

KEYS[1]  tat: string, the theoretical arrival time: "<us>" or "<us> <f> <parts>", meaning us + f/parts microseconds
              (0 < f < parts); the bucket is full whenever tat <= now, and each permit pushes tat by the emission
              interval T = ARGV[2] / ARGV[3] microseconds. A value of another type is deleted (the key's problem, not
              Redis's); a plain number (as an earlier Guard wrote) is rounded up to the microsecond.
ARGV[1]  now in microseconds, or "" to read the Redis server clock (TIME)
ARGV[2]  emission interval numerator: interval in microseconds / gcd(interval in microseconds, rate)
ARGV[3]  emission interval denominator ("parts"): rate / the same gcd
ARGV[4]  permits requested (1..burst, checked by the caller); in charge mode the permits charged, negative to refund
ARGV[5]  burst (the most permits that can be taken at once)
ARGV[6]  expiry margin in milliseconds added to PEXPIRE
ARGV[7]  optional; "1" to peek: decide as usual but write nothing, so remaining is what is left before the request;
         "b" to peek answering the signed balance as remaining (an inspection, which shows a debt);
         "c" to charge a cost known after the call: move tat by ARGV[4] emission intervals whatever is left (into
         debt, capped at 2^52 steps of 1/parts us ahead of now; a refund never moves it before now), then answer as a
         peek for one permit

Returns  {allowed (1|0), remaining, retryAfter us, resetAfter us, now us}; with "b" or "c", remaining is the balance
         rounded down, negative while the key is in debt (the caller reads it as 0 remaining and a debt); else never
         below 0

Arithmetic: times are whole microseconds plus a remainder in 1/parts of a microsecond, never a fraction in a double.
The caller's policy bounds keep burst * ARGV[2] (the tolerance in steps of 1/parts us) at or below 2^52, so every
product and sum here is an integer below 2^53 and exact in Lua's doubles.

Invariant: after an admission, tat - now <= burst * T, so over any period d at most burst + d / T permits are
granted. Only a charge moves tat beyond that (a debt), and then no request is admitted until now has caught up. The
key expires when the bucket is full again (tat <= now), after which its absence means "full".
]]
local now
if ARGV[1] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[1])
end
local micros, parts, permits = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local burst, margin = tonumber(ARGV[5]), tonumber(ARGV[6])
local peek = ARGV[7] == '1' or ARGV[7] == 'b'
local charge = ARGV[7] == 'c'
local signed = charge or ARGV[7] == 'b'

-- Exact floor division of integers below 2^53: a double quotient may round up across an integer.
local function divmod(a, b)
  local q = math.floor(a / b)
  local r = a - q * b
  if r < 0 then q, r = q - 1, r + b elseif r >= b then q, r = q + 1, r - b end
  return q, r
end

-- Writes tat (whole us, fraction) with an expiry at the instant the bucket is full again.
local function store(w, f)
  local value = string.format('%d', w)
  if f > 0 then value = value .. ' ' .. string.format('%d', f) .. ' ' .. string.format('%d', parts) end
  redis.call('SET', KEYS[1], value, 'PX', math.ceil((w - now + 1) / 1000) + margin)
end

local raw = redis.pcall('GET', KEYS[1])
if type(raw) == 'table' and raw.err then
  if not string.find(raw.err, 'WRONGTYPE', 1, true) then return redis.error_reply(raw.err) end
  if not peek then redis.call('DEL', KEYS[1]) end
  raw = false
end
local tw, tf = nil, 0
if raw then
  local x = tonumber(raw) -- the common case: whole microseconds, no pattern to match
  if x then
    tw = math.ceil(x)
  else
    local w, f, p = string.match(raw, '^(%d+) (%d+) (%d+)$')
    if w then
      tw = tonumber(w)
      -- Counted in another rate's steps: round up to the next microsecond, never early.
      if tonumber(p) == parts then tf = tonumber(f) elseif tonumber(f) > 0 then tw = tw + 1 end
    end
  end
end
if tw == nil or tw < now then tw, tf = now, 0 end
if charge then
  local q, r = divmod(math.abs(permits) * micros, parts)
  if permits >= 0 then
    tw, tf = tw + q, tf + r
    if tf >= parts then tw, tf = tw + 1, tf - parts end
    if (tw - now) * parts + tf > 4503599627370496 then tw, tf = divmod(4503599627370496, parts); tw = now + tw end
  else
    tw, tf = tw - q, tf - r
    if tf < 0 then tw, tf = tw - 1, tf + parts end
    if tw < now then tw, tf = now, 0 end
  end
  store(tw, tf)
  permits, peek = 1, true
end

local q, r = divmod(permits * micros, parts)
local cw, cf = tw + q, tf + r
if cf >= parts then cw, cf = cw + 1, cf - parts end
local lw, lf = divmod(burst * micros, parts)
local ahead = cw - now
local allowed = ahead < lw or (ahead == lw and cf <= lf)
local retry = 0
if not allowed then
  retry = ahead - lw
  if cf > lf then retry = retry + 1 end
elseif not peek then
  tw, tf = cw, cf
  store(tw, tf)
end
local dw, df = lw - (tw - now), lf - tf
if df < 0 then dw, df = dw - 1, df + parts end
local remaining = 0
if dw >= 0 or signed then remaining = (divmod(dw * parts + df, micros)) end
local reset = tw - now
if tf > 0 then reset = reset + 1 end
return {allowed and 1 or 0, remaining, retry, reset, now}
