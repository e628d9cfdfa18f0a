#!lua
-- Inserts a batch of new PENDING jobs, all or none, and allocates their ids: one round trip per batch.
-- KEYS[1]      queue meta hash (exists exactly while the queue exists)
-- KEYS[2]      set of the queue's priorities in use
-- KEYS[3]      the shard's id counter (unique in the shard, never reused)
-- KEYS[2+2i]   pending sorted set of job i's priority;  KEYS[3+2i] job hash prefix of job i's priority
-- ARGV, 6 per job: priority, body, attempts allowed, custom status, created at, run after
-- Returns the first id (job i has first + i - 1), or the error QUEUE_NOT_FOUND (then no id is taken).
-- Only what differs from the defaults is stored (see JobFields): state PENDING, attempts remaining =
-- allowed, updated at = created at and an empty custom status are implied.
-- Members are ids as 19 zero-padded digits (Members.java); ids stay below 2^53, exact in Lua's numbers.
--!include batch.lua
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
local jobs = (#KEYS - 3) / 2
local first = redis.call('INCRBY', KEYS[3], jobs) - jobs + 1
local pending = {} -- pending set key -> {score, member, ...}
for i = 1, jobs do
  local a = (i - 1) * 6
  local priority, status, run_after = ARGV[a + 1], ARGV[a + 4], ARGV[a + 6]
  local member = string.format('%019d', first + i - 1)
  local job = KEYS[3 + 2 * i] .. member
  if status == '' then
    redis.call('HSET', job, 'b', ARGV[a + 2], 'aa', ARGV[a + 3], 'ca', ARGV[a + 5], 'ra', run_after)
  else
    redis.call('HSET', job, 'b', ARGV[a + 2], 'aa', ARGV[a + 3], 'ca', ARGV[a + 5], 'ra', run_after, 'cs', status)
  end
  local set = KEYS[2 + 2 * i]
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
return first
