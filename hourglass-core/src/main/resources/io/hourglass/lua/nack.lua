-- nack: ACTIVE -> SCHEDULED (retry after `delay`, READY when delay is 0) or DEAD (attempts exhausted, or the
-- caller gives up with delay -1). The error text is kept as the job's last error, and the attempt counts as failed
-- in the topic's history. A retry keeps the job's first due time; a death posts its failure notice (common.lua)
-- and trims the shard's dead letters to their limits (trim_dead).
-- ARGV[3] id, [4] receipt, [5] retry delay ms (-1 = dead now), [6] error text ('' keeps the previous one),
-- [7] dead letters' max count per shard (0: none), [8] their max age ms (0: none); for a deferral only, [9] the
-- deferral's delay ms and [10] the most deferrals a job may have.
-- A deferral is a callback whose receiver answered 429 or 503 with Retry-After: while the job's deferrals (record
-- field 13) are fewer than [10] it waits [9] ms and no attempt is charged, nothing counted as failed in the history
-- and its last error left as it was (the receiver asked for later, it did not fail); past the limit it is a failed
-- attempt as above, after the delay [5].
-- Returns {'OK', state, due ms, dead letters trimmed, 'DEFERRED' when deferred} or {'STALE' | 'MISSING'}.
-- @include common.lua

local id, delay, err = ARGV[3], tonumber(ARGV[5]), ARGV[6]
local j, lane = leased_job(id, ARGV[4])
if not j then return { lane } end
local now = now_ms()
end_lease(id, lane)
local defer = tonumber(ARGV[9] or '')
if defer and j.deferrals < tonumber(ARGV[10]) then
  j.deferrals = j.deferrals + 1
  move_due(j, now + defer)
  save_job(id, j)
  return { 'OK', place(id, j, now), j.due, 0, 'DEFERRED' }
end
if err ~= '' then redis.call('HSET', ERRORS, id, err) end
j.failed = j.failed + 1
count_history(now, 0, 1)
if delay < 0 or j.failed >= j.max then
  save_job(id, j)
  redis.call('ZADD', DEAD, int(now), id)
  notify_failure(id, j, now, 'failed')
  history_event(id, 'DEAD', j, j.failed, now)
  local trimmed = trim_dead(now, tonumber(ARGV[7]), tonumber(ARGV[8]), 1 + TRIM_EXTRA)
  history_flush()
  return { 'OK', 'DEAD', j.due, trimmed }
end
move_due(j, now + delay)
save_job(id, j)
return { 'OK', place(id, j, now), j.due, 0 }
