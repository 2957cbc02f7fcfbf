-- get (read only): a job's record, state, last error and lease deadline. A waiting job is READY once its due time
-- has come, SCHEDULED before.
-- A completed job retained after its ack (the topic's retention, kept in `ended`) reads as COMPLETED.
-- ARGV[3] id. Returns {} when missing, else {state, record (with its header: with_header), last error or '', lease
-- deadline ms or -1}; the attempt of an ACTIVE job is its record's failed + 1, of any other its record's failed. A
-- COMPLETED job's reply goes on with its completion time (ms) and, when it has one, its result: {'COMPLETED', record,
-- '', -1, completed ms[, result]}; its attempt is its record's failed + 1, the delivery that was acked.
-- @include common.lua

local id = ARGV[3]
local j, raw = load_job(id)
if not j then
  local completed_at, record, result = retained_job(id, now_ms())
  if not completed_at then return {} end
  return { 'COMPLETED', record, '', -1, completed_at, result }
end
local state, key = locate(id, j, now_ms())
local deadline = -1
if state == 'ACTIVE' then deadline = tonumber(redis.call('ZSCORE', key, id)) end
return { state, with_header(raw, j.due), redis.call('HGET', ERRORS, id) or '', deadline }
