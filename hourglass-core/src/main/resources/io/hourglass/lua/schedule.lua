-- schedule: a new job enters SCHEDULED (due later) or READY (due now); on an existing id, per onConflict:
-- 'reject' changes nothing, 'keep' changes nothing and reports the existing job, 'replace' puts the new job in
-- the old one's place (a delivery in progress loses its receipt).
-- ARGV[3] id, [4] onConflict, [5] 'delay' | 'at', [6] delay ms or due epoch ms, [7] maxAttempts, [8] lease ms,
-- [9] backoff spec, [10] callback URL ('' for none), [11] payload.
-- Returns {outcome ('CREATED' | 'REPLACED' | 'KEPT' | 'EXISTS'), state, due ms}.
-- @include common.lua

local id, on_conflict = ARGV[3], ARGV[4]
local now = now_ms()
local due = tonumber(ARGV[6])
if ARGV[5] == 'delay' then due = now + due end

local outcome = 'CREATED'
local existing = load_job(id)
if existing then
  local state, key = locate(id, existing)
  if on_conflict ~= 'replace' then
    if on_conflict == 'keep' then outcome = 'KEPT' else outcome = 'EXISTS' end
    if state == 'SCHEDULED' and existing.due <= now then state = 'READY' end
    return { outcome, state, existing.due }
  end
  redis.call('ZREM', key, id)
  redis.call('HDEL', ERRORS, id)
  outcome = 'REPLACED'
end

local job = { due = due, attempt = 0, max = tonumber(ARGV[7]), lease = tonumber(ARGV[8]), receipt = '',
              backoff = ARGV[9], callback = ARGV[10], payload = ARGV[11] }
save_job(id, job)
return { outcome, place(id, job, now), due }
