-- Shared by the scripts that end a job for good: a job that holds a unique key while active (field
-- 'uk', the key's name; see enqueue_unique.lua) releases it when it finishes or is deleted.
local function release_key(job)
  local uk = redis.call('HGET', job, 'uk')
  if uk then
    redis.call('DEL', uk)
    redis.call('HDEL', job, 'uk')
  end
end
