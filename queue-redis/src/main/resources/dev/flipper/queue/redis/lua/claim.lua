#!lua
-- Claims up to ARGV[2] due PENDING jobs of one priority, earliest run-after first (then lowest id):
-- each becomes IN_PROGRESS with the claim descriptor and source, updated at = now.
-- KEYS[1] pending set, KEYS[2] running set (by updated at),
-- KEYS[3] job hash prefix (a job's hash is this prefix .. member: same hash tag)
-- ARGV[1] now, ARGV[2] limit, ARGV[3] claim descriptor, ARGV[4] source
-- Returns 7 values per job: member, body, attempts allowed, attempts remaining, custom status,
-- created at, run after (all as stored before the claim).
--!include batch.lua
local now, limit = ARGV[1], tonumber(ARGV[2])
local out, n, claimed = {}, 0, 0
while claimed < limit do
  -- At most 1000 per round keeps unpack() and the reply of one round small.
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, math.min(limit - claimed, 1000))
  if #due == 0 then
    break
  end
  redis.call('ZREM', KEYS[1], unpack(due))
  local running, r = {}, 0
  for _, member in ipairs(due) do
    local key = KEYS[3] .. member
    local f = redis.call('HMGET', key, 'b', 'aa', 'ar', 'cs', 'ca', 'ra')
    -- A job whose hash was evicted is dropped from the index and skipped.
    if f[2] then
      redis.call('HSET', key, 's', 1, 'ua', now, 'cd', ARGV[3], 'src', ARGV[4])
      running[r + 1], running[r + 2], r = now, member, r + 2
      out[n + 1], out[n + 2], out[n + 3], out[n + 4] = member, f[1], f[2], f[3] or f[2]
      out[n + 5], out[n + 6], out[n + 7] = f[4] or '', f[5], f[6]
      n = n + 7
      claimed = claimed + 1
    end
  end
  if r > 0 then
    zadd_many(KEYS[2], running)
  end
end
return out
