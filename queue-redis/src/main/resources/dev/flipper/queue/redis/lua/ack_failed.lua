#!lua
-- A failed attempt for each listed IN_PROGRESS job of one priority: with more than one attempt remaining
-- it goes back to PENDING (one attempt fewer, claim cleared, run after = now + retry delay), otherwise it
-- becomes FAILED with 0 remaining. Appends to the custom status. Other states are left alone.
-- KEYS[1] queue meta, KEYS[2] running, KEYS[3] pending, KEYS[4] failed (by run-after),
-- KEYS[5] failed log (garbage collection order), KEYS[5+j] job j's hash
-- ARGV[1] now, then 3 per job: member, text to append, retry delay ms
-- Returns how many jobs changed, or the error QUEUE_NOT_FOUND.
--!include batch.lua
--!include status.lua
--!include unique.lua
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
local now, members = tonumber(ARGV[1]), {}
for j = 1, #KEYS - 5 do
  members[j] = ARGV[3 * j - 1]
end
local running = scores_of(KEYS[2], members)
local seen, left, retry, failed, log = {}, {}, {}, {}, {}
for j, member in ipairs(members) do
  if running[j] and not seen[member] then
    seen[member] = true -- a job listed twice changes once
    table.insert(left, member)
    local key = KEYS[5 + j]
    local f = redis.call('HMGET', key, 'aa', 'ar', 'ra', 'cs')
    if f[1] then -- else the hash was evicted: only the index entry goes
      local remaining = tonumber(f[2] or f[1])
      local status = cut_status((f[4] or '') .. ARGV[3 * j])
      if remaining > 1 then
        local run_after = now + tonumber(ARGV[3 * j + 1])
        redis.call('HSET', key, 's', 0, 'ar', remaining - 1, 'ra', run_after, 'ua', now, 'cs', status)
        redis.call('HDEL', key, 'cd', 'src')
        table.insert(retry, run_after)
        table.insert(retry, member)
      else
        redis.call('HSET', key, 's', 3, 'ar', 0, 'ua', ARGV[1], 'cs', status)
        release_key(key)
        table.insert(failed, f[3])
        table.insert(failed, member)
        table.insert(log, ARGV[1] .. ':' .. member)
      end
    end
  end
end
if #left > 0 then
  call_many('ZREM', KEYS[2], left)
end
if #retry > 0 then
  zadd_many(KEYS[3], retry)
end
if #failed > 0 then
  zadd_many(KEYS[4], failed)
  call_many('RPUSH', KEYS[5], log)
end
return (#retry + #failed) / 2
