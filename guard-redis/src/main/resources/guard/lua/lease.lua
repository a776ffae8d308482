--[[
LEASE: takes up to `want` permits of one limit's shared quota at once (a lease), after giving back what this
instance's previous lease of the limit left unused; or only gives back (want = 0). token_bucket.lua and
fixed_window.lua are put before this file at load time as `algorithms['<name>'] = function(KEYS, ARGV) <file> end`
(as for decide.lua), so a lease is decided by the very code that decides a request: first in peek mode for the
request's own permits (what is left), then for the lease's size.

KEYS     the limit's keys, as its algorithm's header lists them
ARGV[1]  the algorithm's file name: token_bucket or fixed_window (a sliding log's records would carry the lease's
         time, not the time of each use, so leases are refused for it before they reach Redis)
ARGV[2]  want: the most permits to take (0: only give back)
ARGV[3]  unused permits of the previous lease to give back (0: none)
ARGV[4]  when the previous lease was taken, microseconds on the limit's clock (a fixed window gives back only into
         that window)
ARGV[5.. the algorithm's arguments in peek form (the last is "1"), its permits being the request's own (need)
Returns  {granted, remaining, retryAfter us, resetAfter us, now us, given back}: granted is 0 when fewer than need
         permits are left (the row is then the algorithm's refusal of the request), else min(want, what is left);
         remaining is what the quota has left after the lease. A give-back alone returns {0, 0, 0, 0, now, given back}.

Invariant (giving back never lets the limit admit more than it allows): a fixed window's count only drops by permits
taken in that same window and not used, so it stays at or above the permits admitted in it; a token bucket's
theoretical arrival time moves back by at most the unused permits' worth and never below now (a bucket never holds
more than full), so what was given back is what the lease's holder can no longer spend.
]]
local file, want, unused, taken_at = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if file ~= 'token_bucket' and file ~= 'fixed_window' then return redis.error_reply('lease: unsupported algorithm ' .. tostring(file)) end
local args = {}
for i = 5, #ARGV do args[#args + 1] = ARGV[i] end
if args[1] == '' then
  local t = redis.call('TIME')
  args[1] = string.format('%d', tonumber(t[1]) * 1000000 + tonumber(t[2]))
end
local now = tonumber(args[1])

-- Token bucket: tat - unused * T, kept in the same "<us> <f> <parts>" form token_bucket.lua writes.
local function give_token_bucket()
  local micros, parts, margin = tonumber(args[2]), tonumber(args[3]), tonumber(args[6])
  local raw = redis.pcall('GET', KEYS[1])
  if type(raw) ~= 'string' then return 0 end
  local tw, tf = tonumber(raw), 0
  if tw then
    tw = math.ceil(tw)
  else
    local w, f, p = string.match(raw, '^(%d+) (%d+) (%d+)$')
    if not w or tonumber(p) ~= parts then return 0 end -- counted in another rate's steps: keep it
    tw, tf = tonumber(w), tonumber(f)
  end
  if tw <= now then return 0 end
  -- At most what the bucket lacks to be full: the permits between now and tat.
  local ahead = (tw - now) * parts + tf
  local back = math.min(unused, math.floor(ahead / (micros)))
  if back <= 0 then return 0 end
  local steps = ahead - back * micros
  if steps <= 0 then
    redis.call('DEL', KEYS[1])
    return back
  end
  local w = now + math.floor(steps / parts)
  local f = steps - math.floor(steps / parts) * parts
  local value = string.format('%d', w)
  if f > 0 then value = value .. ' ' .. string.format('%d', f) .. ' ' .. string.format('%d', parts) end
  redis.call('SET', KEYS[1], value, 'PX', math.ceil((w - now + 1) / 1000) + margin)
  return back
end

-- Fixed window: the lease's window's count minus the unused permits, if that window is still the stored one.
local function give_fixed_window()
  local interval = tonumber(args[3])
  local state = redis.pcall('HMGET', KEYS[1], 'w', 'c')
  if state.err then return 0 end
  if tonumber(state[1]) ~= taken_at - (taken_at % interval) then return 0 end
  local count = tonumber(state[2]) or 0
  local back = math.min(unused, count)
  if back > 0 then redis.call('HSET', KEYS[1], 'c', string.format('%d', count - back)) end
  return back
end

local given = 0
if unused > 0 then
  if file == 'token_bucket' then given = give_token_bucket() elseif file == 'fixed_window' then
    given = give_fixed_window() end
end
if want == 0 then return {0, 0, 0, 0, now, given} end

local algorithm = algorithms[file]
local peek = algorithm(KEYS, args)
if peek[1] ~= 1 then return {0, peek[2], peek[3], peek[4], peek[5], given} end
local granted = math.min(want, peek[2])
args[4] = string.format('%d', granted)
args[#args] = '0'
local row = algorithm(KEYS, args)
if row[1] ~= 1 then return redis.error_reply('lease: ' .. granted .. ' permits seen free were refused') end
return {granted, row[2], row[3], row[4], row[5], given}
