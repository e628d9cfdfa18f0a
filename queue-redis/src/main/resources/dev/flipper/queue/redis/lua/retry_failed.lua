#!lua
-- Moves up to ARGV[3] FAILED jobs of one priority (earliest run-after first) back to PENDING with
-- ARGV[1] attempts remaining, run after ARGV[2] and the claim cleared. (Their entries in the failed log
-- go stale; garbage collection skips them.)
-- KEYS[1] queue meta, KEYS[2] failed (by run-after), KEYS[3] pending,
-- KEYS[4] job hash prefix (a job's hash is this prefix .. member)
-- ARGV[1] attempts, ARGV[2] run after, ARGV[3] limit (<= 1000), ARGV[4] now
-- Returns {moved, examined} (examined > moved when hashes were missing), or the error QUEUE_NOT_FOUND.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
local failed = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[3]) - 1)
if #failed == 0 then
  return {0, 0}
end
redis.call('ZREM', KEYS[2], unpack(failed))
local moved = 0
for _, member in ipairs(failed) do
  local key = KEYS[4] .. member
  if redis.call('EXISTS', key) == 1 then
    redis.call('HSET', key, 's', 0, 'ar', ARGV[1], 'ra', ARGV[2], 'ua', ARGV[4])
    redis.call('HDEL', key, 'cd', 'src')
    redis.call('ZADD', KEYS[3], ARGV[2], member)
    moved = moved + 1
  end
end
return {moved, #failed}
