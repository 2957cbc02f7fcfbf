-- get (read only): a job's record, state, last error and lease deadline. A waiting job is READY once its due time
-- has come, SCHEDULED before.
-- ARGV[3] id. Returns {} when missing, else {state, record, last error or '', lease deadline ms or -1}; the attempt
-- of an ACTIVE job is its record's failed + 1, of any other its record's failed.
-- @include common.lua

local id = ARGV[3]
local raw = redis.call('HGET', JOBS, id)
if not raw then return {} end
local state, key = locate(id, decode_job(raw), now_ms())
local deadline = -1
if state == 'ACTIVE' then deadline = tonumber(redis.call('ZSCORE', key, id)) end
return { state, raw, redis.call('HGET', ERRORS, id) or '', deadline }
