--[[
RESET: forgets one limit's quota, on every instance at once.

KEYS     every key the limit may have in its scope: log, state, tat and window (whatever the algorithm was), all with
         one hash tag, so one slot
ARGV[1]  the channel every RedisRateLimiter with this key prefix listens on
ARGV[2]  the message: the limit's hash tag, on which each instance drops the refusals it remembers for that limit

Returns  {number of keys deleted}

Invariant: the keys are gone before any instance hears of it, so a request sent after an instance dropped its
remembered refusals finds the quota whole.
]]
local deleted = redis.call('DEL', unpack(KEYS))
redis.call('PUBLISH', ARGV[1], ARGV[2])
return {deleted}
