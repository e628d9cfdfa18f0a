#!lua
-- Deletes up to ARGV[1] jobs of a queue; once none are left, deletes the queue's remaining keys.
-- Called repeatedly so a large queue never blocks Redis for long.
-- KEYS[1] queue meta, KEYS[2] set of priorities in use, then 7 per priority listed in ARGV:
--   pending, running, succeeded, failed, succeeded log, failed log,
--   job hash prefix (a job's hash is this prefix .. member)
-- ARGV[1] most jobs to delete in this call, ARGV[2..] the priorities (as read from KEYS[2])
-- Returns 1 if something is left (call again), 0 when the queue is gone.
--!include batch.lua
--!include unique.lua
local budget = tonumber(ARGV[1])
local priorities = #ARGV - 1
for p = 0, priorities - 1 do
  local base = 3 + p * 7
  for state = 0, 3 do
    local set = KEYS[base + state]
    local jobs = redis.call('ZRANGE', set, 0, budget - 1)
    if #jobs > 0 then
      for _, member in ipairs(jobs) do
        release_key(KEYS[base + 6] .. member)
        redis.call('DEL', KEYS[base + 6] .. member)
      end
      call_many('ZREM', set, jobs)
      budget = budget - #jobs
      if budget <= 0 then
        return 1
      end
    end
  end
end
-- A priority added since the caller read the set needs another pass.
if redis.call('SCARD', KEYS[2]) ~= priorities then
  return 1
end
for p = 0, priorities - 1 do
  local base = 3 + p * 7
  redis.call('DEL', KEYS[base], KEYS[base + 1], KEYS[base + 2], KEYS[base + 3], KEYS[base + 4], KEYS[base + 5])
end
redis.call('DEL', KEYS[1], KEYS[2])
return 0
