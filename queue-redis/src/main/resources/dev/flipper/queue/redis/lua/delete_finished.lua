#!lua
-- Garbage collection for one priority of one queue: deletes jobs that entered the state (SUCCEEDED or
-- FAILED) before ARGV[1], examining at most ARGV[2] log entries. The log lists "<entered at>:<member>" in
-- the order jobs entered the state; an entry whose job has since left the state, or re-entered it later,
-- is stale and only dropped. Entries are in Redis order, so with clock skew between servers a job may be
-- collected a little late, never early.
-- KEYS[1] the state's set, KEYS[2] its log, KEYS[3] job hash prefix (a job's hash is this prefix .. member)
-- ARGV[1] entered before (exclusive), ARGV[2] most entries (<= 1000), ARGV[3] the state's code
-- Returns {deleted, examined}.
local before, most = tonumber(ARGV[1]), tonumber(ARGV[2])
local deleted, examined = 0, 0
while examined < most do
  local entry = redis.call('LINDEX', KEYS[2], 0)
  if not entry then
    break
  end
  local colon = string.find(entry, ':', 1, true)
  local entered = string.sub(entry, 1, colon - 1)
  if tonumber(entered) >= before then
    break
  end
  redis.call('LPOP', KEYS[2])
  examined = examined + 1
  local member = string.sub(entry, colon + 1)
  local key = KEYS[3] .. member
  local f = redis.call('HMGET', key, 's', 'ua')
  if f[1] == ARGV[3] and f[2] == entered then
    redis.call('DEL', key)
    redis.call('ZREM', KEYS[1], member)
    deleted = deleted + 1
  elseif not f[1] and redis.call('EXISTS', key) == 0 then
    redis.call('ZREM', KEYS[1], member) -- the hash was evicted: drop the dangling index entry
  end
end
return {deleted, examined}
