-- ack: ACTIVE -> gone, for one or more deliveries of one shard. Each job succeeded; its record and last error are
-- deleted, and its id stays reserved for its idempotency window (outcome ACKED). Acks of many deliveries travel in
-- one call (ShardBatcher), so a busy worker pays one round trip and one script run for the lot instead of one per
-- job; a worker's next claim carries them too (claim.lua). The acked jobs
-- count as processed in the topic's history.
-- ARGV[3] id1, [4] receipt1, [5] id2, [6] receipt2, ...
-- Returns one outcome per pair, in order: 'OK', 'STALE' (not this delivery's receipt) or 'MISSING' (no such job).
-- @include common.lua

local now = now_ms()
local outcomes, acked = ack_all(3, now)
if acked > 0 then count_history(now, acked, 0) end
return outcomes
