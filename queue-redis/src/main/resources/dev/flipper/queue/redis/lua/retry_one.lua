#!lua
-- Moves one job back to PENDING if it is FAILED, as retry_failed does: ARGV[2] attempts remaining, run after
-- ARGV[3], the claim cleared. (Its entry in the failed log goes stale; garbage collection skips it.)
-- KEYS[1] queue meta, KEYS[2] failed (by run-after), KEYS[3] pending, KEYS[4] the job's hash
-- ARGV[1] the job's member, ARGV[2] attempts, ARGV[3] run after, ARGV[4] now
-- Returns 1 if moved, 0 if the job does not exist or is not FAILED, or the error QUEUE_NOT_FOUND.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then
  return 0
end
if redis.call('EXISTS', KEYS[4]) == 0 then
  return 0
end
redis.call('HSET', KEYS[4], 's', 0, 'ar', ARGV[2], 'ra', ARGV[3], 'ua', ARGV[4])
redis.call('HDEL', KEYS[4], 'cd', 'src')
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1
