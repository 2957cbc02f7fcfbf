-- ack: ACTIVE -> gone, for one or more deliveries of one shard. Each job succeeded; its record and last error are
-- deleted, and its id stays reserved for its idempotency window (outcome ACKED). Acks of many deliveries travel in
-- one call (ShardBatcher), so a busy worker pays one round trip and one script run for the lot instead of one per
-- job; a worker's next claim carries them too (claim.lua). The acked jobs
-- count as processed in the topic's history.
-- With a retention, each acked job stays readable as COMPLETED for that long, with its result (ack_all).
-- ARGV[3] retention of completed jobs ms (0: off), [4] id1, [5] receipt1 (optionally followed by a newline and the
-- job's result bytes), [6] id2, [7] receipt2, ...
-- Returns one outcome per pair, in order: 'OK', 'STALE' (not this delivery's receipt) or 'MISSING' (no such job).
-- @include common.lua

local now = now_ms()
local outcomes, acked = ack_all(4, now, tonumber(ARGV[3]))
if acked > 0 then count_history(now, acked, 0) end
history_flush()
return outcomes
