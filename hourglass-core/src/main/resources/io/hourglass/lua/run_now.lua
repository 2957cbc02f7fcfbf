-- run_now: SCHEDULED -> READY, its due time now by the server's clock; a READY job is left as it is (it is due
-- already, and an earlier due time keeps its place in the line). Wakes the lane's workers.
-- ARGV[3] id. Returns {outcome}: 'MADE_READY', 'ALREADY_READY', 'ACTIVE' or 'DEAD' (refused, nothing changed) or
-- 'MISSING'.
-- @include common.lua

local id = ARGV[3]
local j = load_job(id)
if not j then return { 'MISSING' } end
local now = now_ms()
local state = locate(id, j, now)
if state == 'READY' then return { 'ALREADY_READY' } end
if state ~= 'SCHEDULED' then return { state or 'MISSING' } end
move_due(j, now)
save_job(id, j)
place(id, j, now)
return { 'MADE_READY' }
