#!lua
-- One page of a run-after index in scan order (score descending, then member descending), strictly before a
-- bound: the keyset paging of count and scan. Read-only; O(log(N)^2 + page), never an offset.
-- KEYS[1] the state's set (scored by run-after)
-- ARGV[1] lowest score, as ZCOUNT takes it ("-inf", "(<n>"); ARGV[2] highest score ("+inf", "<n>")
-- ARGV[3] the bound's score ("" for no bound); ARGV[4] the bound's member; ARGV[5] the page size
-- Returns {member, score, ...} in ascending order: the caller reads it backwards.
local key = KEYS[1]
local low = redis.call('ZCARD', key) - redis.call('ZCOUNT', key, ARGV[1], '+inf')
local high = redis.call('ZCOUNT', key, '-inf', ARGV[2])
if ARGV[3] ~= '' then
  -- Members of equal score sort by member (zero-padded ids): find the first tie not below the bound's member.
  local lo = redis.call('ZCOUNT', key, '-inf', '(' .. ARGV[3])
  local hi = redis.call('ZCOUNT', key, '-inf', ARGV[3])
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if redis.call('ZRANGE', key, mid, mid)[1] < ARGV[4] then
      lo = mid + 1
    else
      hi = mid
    end
  end
  if lo < high then
    high = lo
  end
end
if high <= low then
  return {}
end
return redis.call('ZRANGE', key, math.max(low, high - tonumber(ARGV[5])), high - 1, 'WITHSCORES')
