-- claim: the dispatch step of one lane of one shard, in three transitions:
--   ack      ACTIVE -> gone for the acks the worker carries along (as ack.lua), so that a busy worker's acks
--            and its next claim are one round trip and one script run
--   reap     ACTIVE past its lease deadline -> READY (attempts left) or DEAD ("lease expired")
--   lease    READY -> ACTIVE for up to `max` jobs, highest priority first and earliest due first within a priority
--            (take_due_by_priority): the due jobs leave `waiting` or `prio` (promotion
--            moves nothing: a waiting job is READY once its due time has come), each with a fresh receipt in
--            `leases` and lease deadline = now + lease; the record is left as it is. The receipt is the shard's
--            delivery counter joined to a random nonce from the client, so receipts are unique across shards and
--            topics and cannot be guessed, then '~' and the job's idempotency window ('' for the stored default),
--            which the ack reads instead of the record (window_tag); for a bare record (is_bare) '~@' and its due
--            time instead, which has no other place while the job is ACTIVE. A due job past its expiry is never
--            leased: it goes to the dead letters ("expired", reported with the reaped deaths) or is dropped, and the
--            next due job is taken instead.
-- With max = 0 it only acks and reaps (a worker with no free slot still keeps the shard moving). While the topic is
-- paused (the `paused` key, set by the inspector) it also only acks and reaps, and reports nothing ready and no
-- next due time, so workers wait for the resume's wake signal or their sweep. Acks count as processed and reaped
-- leases as failed in the topic's history.
-- Dead letters are trimmed to the shard's limits (trim_dead) when a lease dies and when the claim leases nothing;
-- a claim that leases nothing also deletes expired `ended` entries.
-- ARGV[3] lane (1 worker, 2 callback), [4] max, [5] lease ms (0 = each job's own), [6] reap batch limit,
-- [7] receipt nonce, [8] dead letters' max count per shard (0: none), [9] their max age ms (0: none),
-- [10] retention of completed jobs ms (0: off), [11] id1 to ack, [12] receipt1 (and result, as in ack.lua),
-- [13] id2, ... (none: nothing to ack).
-- Returns {now ms, next due ms or -1, more ready (1 or 0; 2: see flow control below), number of acks k, ack outcome1,
--          ..., ack outcome k,
--          number of reaped deaths d, dead id1, error1, ..., dead id d, error d, dead letters trimmed,
--          id1, record1, lease deadline1, receipt1, id2, ...}; a delivery's attempt is its record's failed + 1.
-- The reaped deaths are the jobs whose lease expired on their last attempt (at most the reap limit), then those
-- that expired before delivery (error 'expired'), so that the process that claimed can log them; d is 0 in most
-- claims.
-- The next due time is that of the earliest job not yet due in `waiting` and every band of `prio`, -1 when there is
-- none or when more jobs are ready
-- than this claim took (the claim that takes the last of them reports it).
-- Flow control (flow.lua): a claim leases at most the shard's whole tokens and free places. When the limits, not
-- `max`, held ready jobs back, "more ready" is 0 (the rate limit: the next due time is when the next token is due,
-- so the worker's timer fires then) or 2 (the cap: a place frees when a delivery of the shard ends).
-- @include common.lua
-- @include flow.lua

local lane = LANES[tonumber(ARGV[3])]
local max, lease_override, limit, nonce = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local dead_max, dead_age = tonumber(ARGV[8]), tonumber(ARGV[9])
local now = now_ms()
local acked, acked_count = ack_all(11, now, tonumber(ARGV[10]), lane)

local expired = redis.call('ZRANGEBYSCORE', lane.active, '-inf', '(' .. int(now), 'LIMIT', 0, limit)
local died = {}
for _, id in ipairs(expired) do
  local j = load_job(id)
  end_lease(id, lane)
  j.failed = j.failed + 1
  local reason = 'lease expired on attempt ' .. int(j.failed)
  redis.call('HSET', ERRORS, id, reason)
  save_job(id, j)
  if j.failed >= j.max then
    redis.call('ZADD', DEAD, int(now), id)
    died[#died + 1] = id
    died[#died + 1] = reason
    notify_failure(id, j, now, 'lease expired')
    history_event(id, 'DEAD', j, j.failed, now, reason)
  else
    redis.call('ZADD', waiting_of(j), int(score_of(j)), id)
  end
end

if acked_count > 0 or #expired > 0 then count_history(now, acked_count, #expired) end

local result = { now, -1, 0, #acked }
for _, outcome in ipairs(acked) do result[#result + 1] = outcome end
result[#result + 1] = #died / 2
for _, v in ipairs(died) do result[#result + 1] = v end
local trimmed = 0
if #died > 0 then trimmed = trim_dead(now, dead_max, dead_age, #died / 2 + TRIM_EXTRA) end
-- One lookup for three keys that most claims find absent: the pause, the flow control and the lane's prioritised
-- jobs. Only when one of them exists does the claim read them one by one.
local plain = redis.call('EXISTS', PAUSED, FLOW, lane.prio) == 0
if not plain and redis.call('EXISTS', PAUSED) == 1 then
  result[#result + 1] = trimmed
  history_flush()
  return result
end
-- Flow control: `want` is what the shard's tokens and free places allow, at most `max`.
local flow = {}
if not plain then flow = redis.call('HMGET', FLOW, 'r', 'b', 'tokens', 'at', 'm') end
local want, r, tokens, places = max, tonumber(flow[1] or ''), nil, tonumber(flow[5] or '')
if r then
  tokens = refill(r, tonumber(flow[2]), tonumber(flow[3]), tonumber(flow[4]), now)
  want = math.min(want, math.floor(tokens))
end
if places then
  -- Both lanes' unexpired leases: an expired one frees its place even before its own lane's claim reaps it.
  for _, l in ipairs(LANES) do places = places - redis.call('ZCOUNT', l.active, int(now), '+inf') end
  want = math.max(0, math.min(want, places))
end
-- The due jobs, earliest first, one past `want` to tell that more are ready. Out of the worker lane's `waiting`
-- with their scores, the due times of bare records, which the receipts carry on (receipt_tag): Redis prints a score
-- into the reply, about a quarter of a microsecond a job, and the claim passes the digits on without parsing them.
-- Expired jobs among them go to the dead letters (reported with the reaped deaths) or are dropped (take_due).
local ids, raws, more, outdated, dues = take_due_by_priority(lane, now, want, plain)
if more then result[3] = 1 end
if #outdated > 0 then
  result[5 + #acked] = result[5 + #acked] + #outdated / 2
  for _, v in ipairs(outdated) do result[#result + 1] = v end
  -- Jobs that expired into the dead letters count against the limits like any other death.
  trimmed = trimmed + trim_dead(now, dead_max, dead_age, #outdated / 2 + TRIM_EXTRA)
end
local trimmed_at = #result + 1
result[trimmed_at] = trimmed
local leased = 0
if #ids > 0 then
  local seq = redis.call('INCRBY', SEQ, #ids) - #ids
  local deadlines, leases = {}, {}
  for k, id in ipairs(ids) do
    local raw = raws[k]
    -- An id without a record breaks invariant 6; it is dropped here rather than stall the lane.
    if raw then
      seq = seq + 1
      -- (Only `waiting`'s jobs come with a score; a bare record anywhere else, which breaks its invariant, is due now.)
      local receipt = int(seq) .. '-' .. nonce .. receipt_tag(raw, dues[k] or int(now))
      local lease = lease_override
      if lease <= 0 then lease = lease_of_record(raw) end
      local deadline = now + lease
      deadlines[#deadlines + 1] = int(deadline)
      deadlines[#deadlines + 1] = id
      leases[#leases + 1] = id
      leases[#leases + 1] = receipt
      result[#result + 1] = id
      result[#result + 1] = raw
      result[#result + 1] = deadline
      result[#result + 1] = receipt
    end
  end
  if #leases > 0 then
    redis.call('ZADD', lane.active, unpack(deadlines))
    redis.call('HSET', LEASES, unpack(leases))
  end
  leased = #leases / 2
end
if tokens then
  tokens = tokens - leased
  if leased > 0 then redis.call('HSET', FLOW, 'tokens', real(tokens), 'at', int(now)) end
end
if result[3] == 1 and want < max then
  result[3] = 0
  if places and leased >= places then result[3] = 2 end
  if tokens and tokens < 1 then result[2] = now + math.ceil((1 - tokens) / r) end
end
-- An idle claim (a worker's sweep) deletes, a bounded step each, the dead letters that aged past their limit and the
-- ended entries (reservations, retained completed jobs) that expired while no call added any.
if #ids == 0 and #died == 0 and #outdated == 0 then
  result[trimmed_at] = trim_dead(now, dead_max, dead_age, IDLE_TRIM)
  trim_ended(now, IDLE_TRIM)
end
-- The call's events (acks, reaped deaths, expiries, trimmed dead letters) as one stream entry.
history_flush()
-- Every due job is taken, so the first job left is the earliest still to come.
if result[3] == 0 and result[2] < 0 then
  local next_due = redis.call('ZRANGE', lane.waiting, 0, 0, 'WITHSCORES')
  if next_due[2] then result[2] = tonumber(next_due[2]) end
  local prio_next = not plain and prio_summary(lane.prio, now, false)
  if prio_next and (result[2] < 0 or prio_next < result[2]) then result[2] = prio_next end
  -- A job due before the next token could not be leased then: the worker waits for the token.
  if result[2] >= 0 and tokens and tokens < 1 then
    result[2] = math.max(result[2], now + math.ceil((1 - tokens) / r))
  end
end
return result
