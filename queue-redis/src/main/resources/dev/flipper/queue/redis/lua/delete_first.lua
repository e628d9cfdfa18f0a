#!lua
-- Deletes the first ARGV[1] jobs (lowest scores) of one priority and state.
-- KEYS[1] queue meta, KEYS[2] the state's set, KEYS[3] job hash prefix (a job's hash is this prefix .. member)
-- ARGV[1] limit (<= 1000)
-- Returns {deleted, examined} (examined > deleted when hashes were missing), or the error QUEUE_NOT_FOUND.
--!include unique.lua
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
local jobs = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1)
if #jobs == 0 then
  return {0, 0}
end
local deleted = 0
for _, member in ipairs(jobs) do
  release_key(KEYS[3] .. member)
  deleted = deleted + redis.call('DEL', KEYS[3] .. member)
end
redis.call('ZREM', KEYS[2], unpack(jobs))
return {deleted, #jobs}
