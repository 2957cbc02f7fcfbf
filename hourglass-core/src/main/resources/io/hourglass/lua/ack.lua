-- ack: ACTIVE -> gone. The job succeeded; its record and last error are deleted.
-- ARGV[3] id, [4] receipt. Returns {'OK'}, {'STALE'} (not this delivery's receipt) or {'MISSING'} (no such job).
-- @include common.lua

local id = ARGV[3]
local j, lane = leased_job(id, ARGV[4])
if not j then return { lane } end
redis.call('ZREM', lane.active, id)
redis.call('HDEL', JOBS, id)
redis.call('HDEL', ERRORS, id)
return { 'OK' }
