-- reschedule: SCHEDULED | READY | ACTIVE -> SCHEDULED at a new due time (READY if it is already due). An ACTIVE
-- job is taken back from its worker: the receipt is voided and the attempt is not charged. DEAD jobs are
-- refused (requeue them instead).
-- ARGV[3] id, [4] 'delay' | 'at', [5] delay ms or due epoch ms.
-- Returns {'OK', state, due ms}, {'DEAD'} or {'MISSING'}.
-- @include common.lua

local id = ARGV[3]
local j = load_job(id)
if not j then return { 'MISSING' } end
local now = now_ms()
local state, key = locate(id, j, now)
if state == 'DEAD' then return { 'DEAD' } end
redis.call('ZREM', key, id)
if state == 'ACTIVE' then redis.call('HDEL', LEASES, id) end
j.due = tonumber(ARGV[5])
if ARGV[4] == 'delay' then j.due = now + j.due end
-- The producer's new due time is the job's first due time from now on.
j.first = nil
save_job(id, j)
return { 'OK', place(id, j, now), j.due }
