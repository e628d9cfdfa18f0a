#!lua
-- The claim time-out for one priority of one queue: IN_PROGRESS jobs last updated before ARGV[1] go back
-- to PENDING (one attempt fewer, claim cleared, runnable now) with more than one attempt remaining, else
-- to FAILED with 0. Each job moves once even when several monitors run: the ZREM decides.
-- KEYS[1] running (by updated at), KEYS[2] pending, KEYS[3] failed (by run-after),
-- KEYS[4] failed log (garbage collection order), KEYS[5] job hash prefix (a job's hash is this prefix .. member)
-- ARGV[1] claimed before (exclusive), ARGV[2] most jobs (<= 1000), ARGV[3] now
-- Returns {retried, failed, examined} (examined counts jobs whose hash was missing too).
--!include unique.lua
local now = ARGV[3]
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #expired == 0 then
  return {0, 0, 0}
end
redis.call('ZREM', KEYS[1], unpack(expired))
local retried, failed = 0, 0
for _, member in ipairs(expired) do
  local key = KEYS[5] .. member
  local f = redis.call('HMGET', key, 'aa', 'ar', 'ra')
  if f[1] then -- else the hash was evicted: only the index entry goes
    local remaining = tonumber(f[2] or f[1])
    if remaining > 1 then
      redis.call('HSET', key, 's', 0, 'ar', remaining - 1, 'ra', now, 'ua', now)
      redis.call('HDEL', key, 'cd', 'src')
      redis.call('ZADD', KEYS[2], now, member)
      retried = retried + 1
    else
      redis.call('HSET', key, 's', 3, 'ar', 0, 'ua', now)
      release_key(key)
      redis.call('ZADD', KEYS[3], f[3], member)
      redis.call('RPUSH', KEYS[4], now .. ':' .. member)
      failed = failed + 1
    end
  end
end
return {retried, failed, #expired}
