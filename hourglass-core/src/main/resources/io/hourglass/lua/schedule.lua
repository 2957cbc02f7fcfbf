-- schedule: new jobs enter SCHEDULED (due later) or READY (due now); on an existing id, per onConflict:
-- 'reject' changes nothing, 'keep' changes nothing and reports the existing job, 'replace' puts the new job in
-- the old one's place (a delivery in progress loses its receipt). An id whose job ended (acked, cancelled, dead letter
-- deleted) less than its idempotency window ago counts as existing: 'reject' and 'keep' report how and when it
-- ended, and 'replace', the caller's explicit wish, creates the job again and drops the reservation. One call
-- schedules the jobs that arrived together on a shard (ShardBatcher), in order, as if each had its own call; the
-- workers are woken once per lane.
-- ARGV from [3]: sixteen per job: id, onConflict, 'delay' | 'at', delay ms or due epoch ms, maxAttempts, lease ms,
-- backoff spec, callback URL ('' for none), idempotency window ms, payload, then expiry: '' (none) | 'at' | 'ttl',
-- expiry epoch ms or ms after the due time, on expiry ('' dead letter | 'drop'), failure URL ('' for none), priority
-- (-5 to 5; '' for the default 0), then the callback's dispatch deadline ms (0: the dispatcher's own).
-- Returns, per job in order, outcome ('CREATED' | 'REPLACED' | 'KEPT' | 'EXISTS'), state, due ms; or, for a reserved
-- id, outcome 'KEPT_ENDED' | 'EXISTS_ENDED', how the earlier job ended ('ACKED' | 'CANCELLED' | 'DEAD') and when (ms).
-- @include common.lua

local now = now_ms()
local wakes = {}
local ARGS_PER_JOB = 16

-- One read for the batch's reservations: most schedules meet none, and then pay no more than this.
local batch_ids = {}
for a = 3, #ARGV, ARGS_PER_JOB do batch_ids[#batch_ids + 1] = ARGV[a] end
local ended = {}
local ended_values = redis.call('HMGET', ENDED, unpack(batch_ids))
for k, id in ipairs(batch_ids) do
  if ended_values[k] then ended[id] = ended_values[k] end
end

-- Whether the job at ARGV[a] has every field but its due time and payload at its stored default, as most jobs do:
-- its record is then bare, the payload alone (is_bare), or, for a payload that begins as a header does, "due\n" and
-- the payload (encode_job). Such a job skips the full job table and the field-by-field
-- encoding, about 15% of a schedule's Redis CPU per job in calls of 64 such jobs. Strings compare first (the empty
-- ones), numbers after; a default written otherwise than the client writes it only takes the longer way.
local function stored_default(a)
  return ARGV[a + 6] == '' and ARGV[a + 7] == '' and ARGV[a + 10] == '' and ARGV[a + 12] == ''
      and ARGV[a + 13] == '' and ARGV[a + 14] == '' and tonumber(ARGV[a + 4]) == DEFAULT_MAX_ATTEMPTS
      and tonumber(ARGV[a + 5]) == DEFAULT_LEASE_MS and tonumber(ARGV[a + 8]) == DEFAULT_WINDOW_MS
      and tonumber(ARGV[a + 15]) == 0
end

local function schedule(a)
  local id, on_conflict = ARGV[a], ARGV[a + 1]
  local due = tonumber(ARGV[a + 3])
  if ARGV[a + 2] == 'delay' then due = now + due end
  local job, record
  if stored_default(a) then
    -- What place() reads of a job: a worker job at the default priority.
    job = { due = due, callback = '', priority = 0 }
    record = ARGV[a + 9]
    if not is_bare(record) then record = int(due) .. '\n' .. record end
  else
    job = { due = due, failed = 0, max = tonumber(ARGV[a + 4]), lease = tonumber(ARGV[a + 5]),
            backoff = ARGV[a + 6], callback = ARGV[a + 7], window = tonumber(ARGV[a + 8]),
            payload = ARGV[a + 9], on_expiry = ARGV[a + 12], failure = ARGV[a + 13],
            priority = tonumber(ARGV[a + 14]) or 0, deadline = tonumber(ARGV[a + 15]) }
    if ARGV[a + 10] == 'at' then job.expires = tonumber(ARGV[a + 11]) end
    if ARGV[a + 10] == 'ttl' then job.expires = due + tonumber(ARGV[a + 11]) end
    record = encode_job(job)
  end
  local outcome = 'CREATED'
  if ended[id] then
    local how, at = reservation(id, ended[id], now)
    if how and on_conflict ~= 'replace' then
      if on_conflict == 'keep' then outcome = 'KEPT_ENDED' else outcome = 'EXISTS_ENDED' end
      return outcome, how, at
    end
    ended[id] = nil
    forget_ended(id)
  end
  -- A new id, the common case, costs one write and no read.
  if redis.call('HSETNX', JOBS, id, record) == 0 then
    local existing = load_job(id)
    local state, key = locate(id, existing, now)
    if on_conflict ~= 'replace' then
      if on_conflict == 'keep' then outcome = 'KEPT' else outcome = 'EXISTS' end
      return outcome, state, existing.due
    end
    redis.call('ZREM', key, id)
    redis.call('HDEL', ERRORS, id)
    if state == 'ACTIVE' then redis.call('HDEL', LEASES, id) end
    redis.call('HSET', JOBS, id, record)
    outcome = 'REPLACED'
  end
  return outcome, place(id, job, now, wakes), due
end

local result = {}
for a = 3, #ARGV, ARGS_PER_JOB do
  local outcome, state, due = schedule(a)
  result[#result + 1] = outcome
  result[#result + 1] = state
  result[#result + 1] = due
end
publish(wakes, now)
trim_ended(now, TRIM_EXTRA)
return result
