#!lua
-- Deletes the listed jobs of one priority if they are still in the given state.
-- KEYS[1] queue meta, KEYS[2] the state's set, KEYS[3..] the jobs' hashes
-- ARGV the jobs' members, in KEYS order
-- Returns how many existing jobs were deleted, or the error QUEUE_NOT_FOUND.
--!include unique.lua
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
local deleted = 0
for i = 3, #KEYS do
  local member = ARGV[i - 2]
  if redis.call('ZREM', KEYS[2], member) == 1 then
    release_key(KEYS[i])
    deleted = deleted + redis.call('DEL', KEYS[i])
  end
end
return deleted
