-- extend: ACTIVE -> ACTIVE with a later lease deadline (now + lease), for handlers that need longer.
-- ARGV[3] id, [4] receipt, [5] lease ms. Returns {'OK', new deadline ms} or {'STALE' | 'MISSING'}.
-- @include common.lua

local id = ARGV[3]
local j, lane = leased_job(id, ARGV[4])
if not j then return { lane } end
local deadline = now_ms() + tonumber(ARGV[5])
redis.call('ZADD', lane.active, int(deadline), id)
return { 'OK', deadline }
