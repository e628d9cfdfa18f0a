#!lua
-- Inserts a batch of new PENDING jobs, all or none.
-- KEYS[1]      queue meta hash (exists exactly while the queue exists)
-- KEYS[2]      set of the queue's priorities in use
-- KEYS[1+2i]   pending sorted set of job i's priority;  KEYS[2+2i] job i's hash
-- ARGV, 7 per job: member, priority, body, attempts allowed, custom status, created at, run after
-- Returns the number of jobs, or the error QUEUE_NOT_FOUND.
-- Only what differs from the defaults is stored (see JobFields): state PENDING, attempts remaining =
-- allowed, updated at = created at and an empty custom status are implied.
--!include batch.lua
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
local jobs = (#KEYS - 2) / 2
local pending = {} -- pending set key -> {score, member, ...}
for i = 1, jobs do
  local a = (i - 1) * 7
  local member, priority, status, run_after = ARGV[a + 1], ARGV[a + 2], ARGV[a + 5], ARGV[a + 7]
  local job = KEYS[2 + 2 * i]
  if status == '' then
    redis.call('HSET', job, 'b', ARGV[a + 3], 'aa', ARGV[a + 4], 'ca', ARGV[a + 6], 'ra', run_after)
  else
    redis.call('HSET', job, 'b', ARGV[a + 3], 'aa', ARGV[a + 4], 'ca', ARGV[a + 6], 'ra', run_after, 'cs', status)
  end
  local set = KEYS[1 + 2 * i]
  if not pending[set] then
    pending[set] = {}
    redis.call('SADD', KEYS[2], priority)
  end
  table.insert(pending[set], run_after)
  table.insert(pending[set], member)
end
for set, entries in pairs(pending) do
  zadd_many(set, entries)
end
return jobs
