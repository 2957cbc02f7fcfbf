-- overview (read only): the inspector's view of one shard of a topic. Every read is O(log N).
-- Returns {now ms, scheduled, ready, active, dead, paused (1 or 0), oldest ready due ms or -1, next due ms or -1,
-- dead letters trimmed to the topic's limits so far (common.lua, trim_dead), retained completed jobs};
-- the oldest READY job's due time gives the topic's latency, and the next due time is that of the earliest
-- SCHEDULED job. Both lanes together, and both their waiting sets (`waiting` and `prio`, per band in use).
-- @include common.lua

local now = now_ms()
local scheduled, ready, active, oldest, next_due = 0, 0, 0, -1, -1
for _, lane in ipairs(LANES) do
  local due = redis.call('ZCOUNT', lane.waiting, '-inf', int(now))
  scheduled = scheduled + redis.call('ZCARD', lane.waiting) - due
  ready = ready + due
  active = active + redis.call('ZCARD', lane.active)
  if due > 0 then
    local first = tonumber(redis.call('ZRANGE', lane.waiting, 0, 0, 'WITHSCORES')[2])
    if oldest < 0 or first < oldest then oldest = first end
  end
  local later = redis.call('ZRANGEBYSCORE', lane.waiting, '(' .. int(now), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  if later[2] then
    local due_at = tonumber(later[2])
    if next_due < 0 or due_at < next_due then next_due = due_at end
  end
  local prio_next, prio_ready, prio_later, prio_oldest = prio_summary(lane.prio, now, true)
  ready = ready + prio_ready
  scheduled = scheduled + prio_later
  if prio_oldest and (oldest < 0 or prio_oldest < oldest) then oldest = prio_oldest end
  if prio_next and (next_due < 0 or prio_next < next_due) then next_due = prio_next end
end
local trimmed = tonumber(redis.call('HGET', HISTORY, 'd') or '0')
return { now, scheduled, ready, active, redis.call('ZCARD', DEAD), redis.call('EXISTS', PAUSED), oldest, next_due,
         trimmed, redis.call('ZCOUNT', COMPLETED, '(' .. int(now), '+inf') }
