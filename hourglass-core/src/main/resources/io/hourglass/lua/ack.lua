-- ack: ACTIVE -> gone, for one or more deliveries of one shard. Each job succeeded; its record and last error are
-- deleted. Acks of many deliveries travel in one call (AckBatcher), so a busy worker pays one round trip and one
-- script run for the lot instead of one per job.
-- ARGV[3] id1, [4] receipt1, [5] id2, [6] receipt2, ...
-- Returns one outcome per pair, in order: 'OK', 'STALE' (not this delivery's receipt) or 'MISSING' (no such job).
-- @include common.lua

local outcomes = {}
for i = 3, #ARGV, 2 do
  local id = ARGV[i]
  local j, lane = leased_job(id, ARGV[i + 1])
  if j then
    redis.call('ZREM', lane.active, id)
    redis.call('HDEL', JOBS, id)
    redis.call('HDEL', ERRORS, id)
    outcomes[#outcomes + 1] = 'OK'
  else
    outcomes[#outcomes + 1] = lane
  end
end
return outcomes
