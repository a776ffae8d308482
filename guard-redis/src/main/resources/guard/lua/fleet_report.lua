--[[
FLEET_REPORT: what state each instance's breakers are in, for the actuator's fleet view. Each instance reports its own
states every poll interval; one that stops reporting (stopped, or cut off from Redis) drops out after its time to live.

KEYS[1]  the sorted set of instances: member = instance name, score = when its report expires (ms, Redis' clock)
KEYS[2]  'report': this instance's hash (field = breaker name, value = state)
ARGV[1]  'report' or 'read'
ARGV[2]  'report': the instance's name; 'read': the prefix of every instance's hash (the name follows it)
ARGV[3]  'report': the report's time to live in milliseconds
ARGV[4..] 'report': breaker name, state, breaker name, state, ...

Returns  'report': {1}; 'read': {name, n, field, value, ... (n pairs), name, n, ...} for every live instance

Invariant: expired instances are removed before anything is read or written, so a read lists no instance whose
report is older than its time to live, on Redis' clock (the instances' clocks play no part).
]]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[1] == 'report' then
    local ttl = tonumber(ARGV[3])
    redis.call('DEL', KEYS[2])
    for i = 4, #ARGV, 2 do
        redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
    end
    redis.call('PEXPIRE', KEYS[2], ttl)
    redis.call('ZADD', KEYS[1], now + ttl, ARGV[2])
    return {1}
end
local out = {}
for _, name in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    local states = redis.call('HGETALL', ARGV[2] .. name)
    out[#out + 1] = name
    out[#out + 1] = #states / 2
    for _, value in ipairs(states) do
        out[#out + 1] = value
    end
end
return out
