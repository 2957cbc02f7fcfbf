-- conflict (read only): what a schedule of an id would meet on this shard, decided as schedule.lua decides it: the
-- reservation of a job that ended within its idempotency window (reservation, in common.lua), else a job. For the
-- cold tier, which asks it before it stores a job of a caller's id (ColdTiering).
-- ARGV[3] id. Returns {} when neither, else schedule.lua's reply for onConflict 'keep', without scheduling:
-- {'KEPT_ENDED', how the job ended ('ACKED' | 'CANCELLED' | 'DEAD'), when (ms)} for a reserved id (a retained
-- completed job is one: its entry in `ended` is its reservation), {'KEPT', state, due ms} for a job.
-- @include common.lua

local id = ARGV[3]
local now = now_ms()
local how, at = reservation(id, redis.call('HGET', ENDED, id), now)
if how then return { 'KEPT_ENDED', how, at } end
local j = load_job(id)
if not j then return {} end
local state = locate(id, j, now)
return { 'KEPT', state, j.due }
