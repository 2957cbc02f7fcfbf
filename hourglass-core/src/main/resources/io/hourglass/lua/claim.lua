-- claim: the dispatch step of one lane of one shard, in four transitions:
--   ack      ACTIVE -> gone for the acks the worker carries along (as ack.lua), so that a busy worker's acks
--            and its next claim are one round trip and one script run
--   reap     ACTIVE past its lease deadline -> READY (attempts left) or DEAD ("lease expired")
--   promote  SCHEDULED whose due time has come -> READY
--   lease    READY -> ACTIVE for up to `max` jobs, earliest due first: attempt + 1, a fresh receipt,
--            lease deadline = now + lease. The receipt is the shard's delivery counter joined to a random
--            nonce from the client, so receipts are unique across shards and topics and cannot be guessed.
-- With max = 0 it only acks, reaps and promotes (a worker with no free slot still keeps the shard moving).
-- ARGV[3] lane (1 worker, 2 callback), [4] max, [5] lease ms (0 = each job's own), [6] reap/promote batch limit,
-- [7] receipt nonce, [8] id1 to ack, [9] receipt1, [10] id2, ... (none: nothing to ack).
-- Returns {now ms, next due ms or -1, ready left, number of acks k, ack outcome1, ..., ack outcome k,
--          id1, record1, lease deadline1, id2, ...}.
-- @include common.lua

local lane = LANES[tonumber(ARGV[3])]
local max, lease_override, limit, nonce = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local now = now_ms()
local acked = ack_all(8)

local expired = redis.call('ZRANGEBYSCORE', lane.active, '-inf', '(' .. int(now), 'LIMIT', 0, limit)
for _, id in ipairs(expired) do
  local j = load_job(id)
  redis.call('ZREM', lane.active, id)
  redis.call('HSET', ERRORS, id, 'lease expired on attempt ' .. int(j.attempt))
  j.receipt = ''
  save_job(id, j)
  if j.attempt >= j.max then
    redis.call('ZADD', DEAD, now, id)
  else
    redis.call('ZADD', lane.ready, j.due, id)
  end
end

local due = redis.call('ZRANGEBYSCORE', lane.scheduled, '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
if #due > 0 then
  local scored, ids = {}, {}
  for i = 1, #due, 2 do
    scored[#scored + 1] = due[i + 1]
    scored[#scored + 1] = due[i]
    ids[#ids + 1] = due[i]
  end
  redis.call('ZADD', lane.ready, unpack(scored))
  redis.call('ZREM', lane.scheduled, unpack(ids))
end

local result = { now, 0, 0, #acked }
for _, outcome in ipairs(acked) do result[#result + 1] = outcome end
if max > 0 then
  local popped = redis.call('ZPOPMIN', lane.ready, max)
  if #popped > 0 then
    local ids = {}
    for i = 1, #popped, 2 do ids[#ids + 1] = popped[i] end
    local seq = redis.call('INCRBY', SEQ, #ids) - #ids
    local raws = redis.call('HMGET', JOBS, unpack(ids))
    local deadlines, records = {}, {}
    for k, id in ipairs(ids) do
      -- An id without a record breaks invariant 6; it is dropped here rather than stall the lane.
      if raws[k] then
        seq = seq + 1
        local raw, lease = leased_record(raws[k], int(seq) .. '-' .. nonce)
        if lease_override > 0 then lease = lease_override end
        local deadline = now + lease
        deadlines[#deadlines + 1] = deadline
        deadlines[#deadlines + 1] = id
        records[#records + 1] = id
        records[#records + 1] = raw
        result[#result + 1] = id
        result[#result + 1] = raw
        result[#result + 1] = deadline
      end
    end
    if #records > 0 then
      redis.call('ZADD', lane.active, unpack(deadlines))
      redis.call('HSET', JOBS, unpack(records))
    end
  end
end
result[2] = earliest_score(lane.scheduled)
result[3] = redis.call('ZCARD', lane.ready)
return result
