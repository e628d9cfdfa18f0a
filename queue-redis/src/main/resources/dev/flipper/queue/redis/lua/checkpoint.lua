#!lua
-- Checkpoints one job if it is IN_PROGRESS and was claimed by exactly ARGV[2]; else changes nothing.
-- Sets run after and updated at (= now, which restarts the claim time-out); optionally moves the job to
-- PENDING (claim cleared), replaces the body, resets the attempts, prefixes the custom status.
-- KEYS[1] queue meta, KEYS[2] running (by updated at), KEYS[3] pending, KEYS[4] job hash
-- ARGV[1] now, ARGV[2] source, ARGV[3] member, ARGV[4] '1' to move to PENDING, ARGV[5] run after,
-- ARGV[6] attempts allowed ('' keeps), ARGV[7] custom status prefix ('' keeps),
-- ARGV[8] '1' to replace the body with ARGV[9]
-- Returns 1 if applied, 0 if not, or the error QUEUE_NOT_FOUND.
--!include status.lua
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
local now, member, run_after = ARGV[1], ARGV[3], ARGV[5]
-- Only a running job qualifies, so a finished job is never brought back.
if not redis.call('ZSCORE', KEYS[2], member) then
  return 0
end
local f = redis.call('HMGET', KEYS[4], 'src', 'cs', 'aa')
if not f[3] then
  redis.call('ZREM', KEYS[2], member) -- the hash was evicted: drop the dangling index entry
  return 0
end
if f[1] ~= ARGV[2] then
  return 0
end
local fields = {'ra', run_after, 'ua', now}
if ARGV[6] ~= '' then
  table.insert(fields, 'aa'); table.insert(fields, ARGV[6])
  table.insert(fields, 'ar'); table.insert(fields, ARGV[6])
end
if ARGV[7] ~= '' then
  table.insert(fields, 'cs'); table.insert(fields, cut_status(ARGV[7] .. (f[2] or '')))
end
if ARGV[8] == '1' then
  table.insert(fields, 'b'); table.insert(fields, ARGV[9])
end
if ARGV[4] == '1' then
  table.insert(fields, 's'); table.insert(fields, 0)
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZADD', KEYS[3], run_after, member)
  redis.call('HDEL', KEYS[4], 'cd', 'src')
else
  redis.call('ZADD', KEYS[2], now, member)
end
redis.call('HSET', KEYS[4], unpack(fields))
return 1
