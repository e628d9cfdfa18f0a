-- Shared helpers (included by the scripts that touch many jobs at once).
-- Variadic commands go 1000 arguments at a time: Lua's unpack() is limited to about 8000 values.
-- (1000 is even, so ZADD score/member pairs never straddle two calls.)
local function call_many(command, key, args)
  for i = 1, #args, 1000 do
    redis.call(command, key, unpack(args, i, math.min(i + 999, #args)))
  end
end

-- ZMSCORE for many members: a score (string) per member, false where the member is absent.
local function scores_of(key, members)
  local scores = {}
  for i = 1, #members, 1000 do
    local part = redis.call('ZMSCORE', key, unpack(members, i, math.min(i + 999, #members)))
    for j = 1, #part do
      scores[#scores + 1] = part[j]
    end
  end
  return scores
end

-- ZADD of many {score, member, ...} pairs, given in ascending order. They are sent in reverse: a small
-- sorted set is a listpack that Redis scans from its head for every insert, so adding the largest first
-- makes each insert find its place at once (it halves the cost of a batch). The result is the same.
local function zadd_many(key, entries)
  local reversed, n = {}, #entries
  for i = 1, n, 2 do
    reversed[n - i], reversed[n - i + 1] = entries[i], entries[i + 1]
  end
  call_many('ZADD', key, reversed)
end
