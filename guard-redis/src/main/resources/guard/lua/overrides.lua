--[[
OVERRIDES: reads or changes a hash every instance shares (the limits' run-time overrides, the breakers' fleet-wide
states) and tells every instance.

KEYS[1]  the hash: field = policy or breaker name, value = what the Spring layer encoded
ARGV[1]  'set', 'del' or 'get'
ARGV[2]  the channel every instance with this key prefix listens on ('set' and 'del')
ARGV[3]  the field ('set' and 'del')
ARGV[4]  the value ('set')
ARGV[5]  the message to publish ('set', optional: the field when absent)

Returns  'get': the hash as a flat list {field, value, ...}; 'set' and 'del': {1}

Invariant: the hash is changed before any instance hears of it, so an instance that re-reads on the message sees
the change.
]]
local op = ARGV[1]
if op == 'get' then
    return redis.call('HGETALL', KEYS[1])
end
local message = ARGV[3]
if op == 'set' then
    redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
    message = ARGV[5] or ARGV[3]
else
    redis.call('HDEL', KEYS[1], ARGV[3])
end
redis.call('PUBLISH', ARGV[2], message)
return {1}
