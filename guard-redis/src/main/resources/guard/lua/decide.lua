--[[
DECIDE: a batch of decisions in one script, one after the other, each exactly as its algorithm decides it alone.
The algorithms (token_bucket.lua, sliding_log.lua, fixed_window.lua) are not copied here: Guard puts each file's text
before this one at load time as `algorithms['<name>'] = function(KEYS, ARGV) <file> end`, so each runs on its own
KEYS and ARGV as if it were the whole script.

KEYS     every entry's keys, entry after entry; one hash slot (the caller batches per slot on a cluster)
ARGV     entry after entry; an entry is its number of limits n, then per limit: the algorithm's file name, the number
         of its keys k, the number of its arguments a, and those a arguments as the algorithm's header lists them.
         Each algorithm's first argument is now in microseconds, or "" for the server clock, read once per batch.
         n = 1 is a plain decision; n > 1 decides several limits all-or-nothing (see below).
Returns  entry after entry: n, then per limit the algorithm's {allowed (1|0), remaining, retryAfter us,
         resetAfter us, now us}, or {-1, the error, 0, 0, 0} for a limit that failed. The reply to a batch is the
         replies to its entries one after the other, so batches concatenate.

Invariant: entry i sees exactly what entries 1..i-1 wrote, as if each were its own script run in this order, and an
error (a Lua error, a failed command) fails only its own entry. An all-or-nothing entry decides each limit in turn;
when any refuses or fails, every key of the entry is put back as it was before the entry (DUMP and RESTORE with the
key's remaining time to live), so a refused entry spends nothing on any limit; its limits still answer what they
decided (the caller reads the entry as refused when any limit refused). A limit runs the same code as alone.
]]
local now = nil
local function clock()
  if now == nil then
    local t = redis.call('TIME')
    now = string.format('%d', tonumber(t[1]) * 1000000 + tonumber(t[2]))
  end
  return now
end

local reply, r = {}, 0

-- Appends one limit's five values, or the row of a limit that failed.
local function append(result, err)
  if result == nil then
    if type(err) == 'table' then err = err.err or 'error' end
    result = {-1, tostring(err), 0, 0, 0}
  end
  reply[r + 1], reply[r + 2], reply[r + 3], reply[r + 4], reply[r + 5] = result[1], result[2], result[3], result[4],
      result[5]
  r = r + 5
end

-- Runs one limit on its own KEYS and ARGV; returns its five values or nil and the error.
local function decide(name, keys, argv)
  local algorithm = algorithms[name]
  if algorithm == nil then return nil, 'unknown algorithm ' .. tostring(name) end
  if argv[1] == '' then argv[1] = clock() end
  local ok, result = pcall(algorithm, keys, argv)
  if not ok then return nil, result end
  if type(result) == 'table' and result.err then return nil, result.err end
  return result
end

-- What the keys of an all-or-nothing entry hold now, to put back if the entry is refused.
local function snapshot(keys)
  local saved = {}
  for i, key in ipairs(keys) do
    saved[i] = {redis.call('DUMP', key), redis.call('PTTL', key)}
  end
  return saved
end

local function restore(keys, saved)
  for i, key in ipairs(keys) do
    local value, ttl = saved[i][1], saved[i][2]
    if value then
      redis.call('RESTORE', key, math.max(ttl, 0), value, 'REPLACE')
    else
      redis.call('DEL', key)
    end
  end
end

-- A plain decision (n = 1) lends its limit these two tables, refilled for each entry, instead of new ones: the
-- algorithms only read them while they run. An all-or-nothing entry keeps a pair per limit.
local single_keys, single_argv = {}, {}
local k, a = 1, 1
local last = #ARGV
while a <= last do
  local n = tonumber(ARGV[a])
  a = a + 1
  r = r + 1
  reply[r] = n
  if n == 1 then
    local name, nkeys, nargs = ARGV[a], tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
    for j = 1, nkeys do single_keys[j] = KEYS[k + j - 1] end
    for j = nkeys + 1, #single_keys do single_keys[j] = nil end
    for j = 1, nargs do single_argv[j] = ARGV[a + 2 + j] end
    for j = nargs + 1, #single_argv do single_argv[j] = nil end
    k, a = k + nkeys, a + 3 + nargs
    append(decide(name, single_keys, single_argv))
  else
    local limits = {}
    local all = {}
    for i = 1, n do
      local name, nkeys, nargs = ARGV[a], tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
      local keys, argv = {}, {}
      for j = 1, nkeys do keys[j] = KEYS[k + j - 1]; all[#all + 1] = KEYS[k + j - 1] end
      for j = 1, nargs do argv[j] = ARGV[a + 2 + j] end
      k, a = k + nkeys, a + 3 + nargs
      limits[i] = {name, keys, argv}
    end
    local saved = snapshot(all)
    local results, errors, refused = {}, {}, false
    for i = 1, n do
      results[i], errors[i] = decide(limits[i][1], limits[i][2], limits[i][3])
      if results[i] == nil or results[i][1] ~= 1 then refused = true end
    end
    if refused then restore(all, saved) end
    for i = 1, n do append(results[i], errors[i]) end
  end
end
return reply
