-- cancel: any state -> gone. A delivery in progress loses its receipt, so its ack is refused. The id stays reserved
-- for the job's idempotency window: from now (outcome CANCELLED), or, for a dead letter, from its time of death
-- (outcome DEAD).
-- ARGV[3] id, [4] required state ('' for any; 'DEAD' to delete only a dead letter).
-- Returns {state the job was in}, or {'MISSING'} / {'WRONG_STATE'} (nothing changed).
-- @include common.lua

local id, required = ARGV[3], ARGV[4]
local j = load_job(id)
if not j then return { 'MISSING' } end
local now = now_ms()
local state, key = locate(id, j, now)
if required ~= '' and state ~= required then return { 'WRONG_STATE' } end
if state == 'DEAD' then
  reserve({ { id, 'D', tonumber(redis.call('ZSCORE', DEAD, id)), j.window } }, now)
else
  reserve({ { id, 'C', now, j.window } }, now)
  -- The delivery in progress, if any, counts as an attempt the job had.
  local attempts = j.failed
  if state == 'ACTIVE' then attempts = attempts + 1 end
  history_event(id, 'CANCELLED', j, attempts, now)
end
redis.call('ZREM', key, id)
redis.call('HDEL', JOBS, id)
redis.call('HDEL', ERRORS, id)
if state == 'ACTIVE' then redis.call('HDEL', LEASES, id) end
history_flush()
return { state }
