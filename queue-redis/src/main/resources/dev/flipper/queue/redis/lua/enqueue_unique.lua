#!lua
-- Inserts one PENDING job that holds a unique key, unless a job of the queue holds the key already.
-- KEYS[1] queue meta, KEYS[2] set of the queue's priorities, KEYS[3] the shard's id counter,
-- KEYS[4] pending set of the job's priority, KEYS[5] job hash prefix of the job's priority,
-- KEYS[6] the key's string: "<priority>:<member>:<until>" of the holder (until 0: while active)
-- ARGV: priority, body, attempts allowed, custom status, created at, run after (as enqueue.lua),
-- then until (0: while PENDING/IN_PROGRESS, else epoch ms), window ms (the string's TTL, 0: none),
-- the queue's key base (a holder's hash is base .. 'p' .. priority .. ':job:' .. member)
-- Returns {1, priority, id} of the holder, or {0, priority, id} of the new job, or QUEUE_NOT_FOUND.
-- A while-active holder has field 'uk' (the key's name); the ack and time-out scripts delete the
-- string when such a job finishes for good. A deleted holder, or a window that ended by the
-- servers' clock (the TTL only bounds memory), releases the key here.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('QUEUE_NOT_FOUND the queue does not exist on this shard')
end
local now, holder = tonumber(ARGV[5]), redis.call('GET', KEYS[6])
if holder then
  local prio, member, holder_until = string.match(holder, '^(%d+):(%d+):(%d+)$')
  local hash = ARGV[9] .. 'p' .. prio .. ':job:' .. member
  local within = holder_until == '0' or now < tonumber(holder_until)
  if within and redis.call('EXISTS', hash) == 1 then
    return {1, tonumber(prio), tonumber(member)}
  end
end
local id = redis.call('INCRBY', KEYS[3], 1)
local member = string.format('%019d', id)
local job = KEYS[5] .. member
redis.call('HSET', job, 'b', ARGV[2], 'aa', ARGV[3], 'ca', ARGV[5], 'ra', ARGV[6])
if ARGV[4] ~= '' then
  redis.call('HSET', job, 'cs', ARGV[4])
end
local value = ARGV[1] .. ':' .. member .. ':' .. ARGV[7]
if ARGV[7] == '0' then
  redis.call('HSET', job, 'uk', KEYS[6])
  redis.call('SET', KEYS[6], value)
else
  redis.call('SET', KEYS[6], value, 'PX', ARGV[8])
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[6], member)
return {0, tonumber(ARGV[1]), id}
