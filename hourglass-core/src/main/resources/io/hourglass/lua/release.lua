-- release: ACTIVE -> READY (or SCHEDULED if its due time was moved later) without charging the attempt: a
-- worker that is shutting down hands back a job it claimed but did not finish.
-- ARGV[3] id, [4] receipt. Returns {'OK', state} or {'STALE' | 'MISSING'}.
-- @include common.lua

local id = ARGV[3]
local j, lane = leased_job(id, ARGV[4])
if not j then return { lane } end
end_lease(id, lane)
return { 'OK', place(id, j, now_ms()) }
