#!lua
-- IN_PROGRESS -> SUCCEEDED for each listed job of one priority, appending to its custom status.
-- Jobs in any other state are left alone.
-- KEYS[1] queue meta, KEYS[2] running, KEYS[3] succeeded (by run-after),
-- KEYS[4] succeeded log (garbage collection order), KEYS[4+j] job j's hash
-- ARGV[1] now, then 2 per job: member, text to append
-- Returns how many jobs changed, or the error QUEUE_NOT_FOUND.
--!include batch.lua
--!include status.lua
--!include unique.lua
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
local now, members = ARGV[1], {}
for j = 1, #KEYS - 4 do
  members[j] = ARGV[2 * j]
end
-- Membership of the running set is the state: only these jobs change.
local running = scores_of(KEYS[2], members)
local seen, left, done, log = {}, {}, {}, {}
for j, member in ipairs(members) do
  if running[j] and not seen[member] then
    seen[member] = true -- a job listed twice changes once
    table.insert(left, member)
    local key, append = KEYS[4 + j], ARGV[2 * j + 1]
    local run_after, status = nil, nil
    if append == '' then
      run_after = redis.call('HGET', key, 'ra')
    else
      local f = redis.call('HMGET', key, 'ra', 'cs')
      run_after, status = f[1], cut_status((f[2] or '') .. append)
    end
    if run_after then -- else the hash was evicted: only the index entry goes
      if status then
        redis.call('HSET', key, 's', 2, 'ua', now, 'cs', status)
      else
        redis.call('HSET', key, 's', 2, 'ua', now)
      end
      release_key(key)
      local d = #done
      done[d + 1], done[d + 2] = run_after, member
      log[d / 2 + 1] = now .. ':' .. member
    end
  end
end
if #left > 0 then
  call_many('ZREM', KEYS[2], left)
end
if #done > 0 then
  zadd_many(KEYS[3], done)
  call_many('RPUSH', KEYS[4], log)
end
return #done / 2
