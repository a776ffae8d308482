--[[
OVERRIDES: reads or changes the run-time overrides of limits, kept in one hash, and tells every instance.

KEYS[1]  the hash of overrides: field = policy name, value = the encoded override
ARGV[1]  'set', 'del' or 'get'
ARGV[2]  the channel every instance with this key prefix listens on ('set' and 'del')
ARGV[3]  the policy name ('set' and 'del')
ARGV[4]  the encoded override ('set')

Returns  'get': the hash as a flat list {field, value, ...}; 'set' and 'del': {1}

Invariant: the hash is changed before any instance hears of it, so an instance that re-reads on the message sees
the change.
]]
local op = ARGV[1]
if op == 'get' then
    return redis.call('HGETALL', KEYS[1])
end
if op == 'set' then
    redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
else
    redis.call('HDEL', KEYS[1], ARGV[3])
end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return {1}
