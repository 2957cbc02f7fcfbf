-- dead_bulk: DEAD -> READY (requeue, attempts reset to 0, as requeue.lua) or DEAD -> gone (delete, as cancel.lua
-- of a dead letter: the id stays reserved for its idempotency window from its time of death), for a bounded chunk
-- of this shard's dead letters, so one call never holds Redis for long.
-- ARGV[3] 'requeue' or 'delete', [4] chunk size, [5] id1, [6] id2, ... (the ids to act on, at most the chunk size;
-- none: the oldest dead letters, up to the chunk size). Ids that are not dead letters here are skipped.
-- Returns {how many were requeued or deleted, dead letters left in this shard}.
-- @include common.lua

local action, limit = ARGV[3], tonumber(ARGV[4])
local ids = {}
if #ARGV >= 5 then
  local seen = {}
  for i = 5, #ARGV do
    local id = ARGV[i]
    if not seen[id] and redis.call('ZSCORE', DEAD, id) then
      seen[id] = true
      ids[#ids + 1] = id
    end
  end
else
  ids = redis.call('ZRANGE', DEAD, 0, limit - 1)
end
if #ids == 0 then return { 0, redis.call('ZCARD', DEAD) } end
if action == 'delete' then
  local raws = redis.call('HMGET', JOBS, unpack(ids))
  local ended = {}
  for k, id in ipairs(ids) do
    if raws[k] then
      ended[#ended + 1] = { id, 'D', tonumber(redis.call('ZSCORE', DEAD, id)), window_of_record(raws[k]) }
    end
  end
  reserve(ended, now_ms())
end
redis.call('ZREM', DEAD, unpack(ids))
if action == 'delete' then
  redis.call('HDEL', JOBS, unpack(ids))
  redis.call('HDEL', ERRORS, unpack(ids))
  return { #ids, redis.call('ZCARD', DEAD) }
end
local now = now_ms()
local raws = redis.call('HMGET', JOBS, unpack(ids))
local wakes, done = {}, 0
for k, id in ipairs(ids) do
  -- A dead id without a record breaks invariant 6; it is dropped (its ZREM above) rather than requeued.
  if raws[k] then
    local j = decode_job(raws[k])
    j.failed = 0
    j.deferrals = 0
    move_due(j, now)
    save_job(id, j)
    place(id, j, now, wakes)
    done = done + 1
  end
end
publish(wakes, now)
return { done, redis.call('ZCARD', DEAD) }
