-- stats (read only): how many jobs of this shard are in each state, both lanes together. A waiting job counts as
-- READY once its due time has come, whichever of `waiting` and `prio` holds it. Every count is O(log N).
-- Returns {scheduled, ready, active, dead}.
-- @include common.lua

local now = now_ms()
local scheduled, ready, active = 0, 0, 0
for _, lane in ipairs(LANES) do
  local due = redis.call('ZCOUNT', lane.waiting, '-inf', now)
  scheduled = scheduled + redis.call('ZCARD', lane.waiting) - due
  ready = ready + due
  active = active + redis.call('ZCARD', lane.active)
  local _, prio_ready, prio_later = prio_summary(lane.prio, now, true)
  ready = ready + prio_ready
  scheduled = scheduled + prio_later
end
return { scheduled, ready, active, redis.call('ZCARD', DEAD) }
