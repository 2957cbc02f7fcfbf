-- requeue: DEAD -> READY with its attempts (and callback deferrals) reset to 0, so it gets its full retry schedule
-- again.
-- ARGV[3] id. Returns {'OK'}, {'NOT_DEAD'} or {'MISSING'}.
-- @include common.lua

local id = ARGV[3]
local j = load_job(id)
if not j then return { 'MISSING' } end
if not redis.call('ZSCORE', DEAD, id) then return { 'NOT_DEAD' } end
local now = now_ms()
redis.call('ZREM', DEAD, id)
j.failed = 0
j.deferrals = 0
move_due(j, now)
save_job(id, j)
place(id, j, now)
return { 'OK' }
