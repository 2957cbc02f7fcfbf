-- Shared by every per-shard script, which pulls it in with an include line (see Script.java).
--
-- KEYS, the same nine in every per-shard script, all under one hash tag {ns:topic:shard}:
--   1 jobs    HASH  id -> job record (see encode_job)
--   2 errors  HASH  id -> last error text (only for jobs that failed at least once)
--   3 dead    ZSET  id -> time of death, ms
--   4 seq     STRING delivery counter; every delivery's receipt is a fresh value of it
--   5 6       worker lane:   waiting (id -> due ms), active (id -> lease deadline ms)
--   7 8       callback lane: the same two, for jobs delivered by HTTP callback
--   9 leases  HASH  id -> receipt of the delivery in progress (ACTIVE jobs only)
--  10 paused  STRING present while the topic is paused: claims lease nothing (inspector's pause)
--  11 history HASH  'p:<minute>' / 'f:<minute>' -> jobs processed / failed in that minute, 't' -> newest minute
--  12 ended   HASH  id -> how and when a job that is gone ended: 'A' (acked), 'C' (cancelled) or 'D' (dead letter
--                   deleted), then the epoch ms it happened; only ids still inside their idempotency window
--  13 ended:expiry ZSET id -> end of the id's idempotency window, ms; trimmed a few entries per call (see reserve)
--  14 flow    HASH  the topic's flow control and this shard's share of it (see flow.lua)
-- (the earlier keys kept their places as keys were added, so every script receives all of them).
-- ARGV[1] is the topic's wake channel and ARGV[2] this shard's index; a script's own arguments start at ARGV[3].
--
-- A job is in exactly one of the five sorted sets (invariant 2); the sorted sets hold ids only, the record lives
-- in `jobs` (invariant 6). A waiting job is SCHEDULED until its due time and READY from then on, by the Redis
-- server's clock (invariant 3): promotion moves nothing, and a claim takes the due jobs straight from `waiting`.
-- Exactly the ACTIVE jobs have an entry in `leases`.

-- Effects replication: needed on Redis < 7 for a script that reads TIME and then writes.
redis.replicate_commands()

local JOBS, ERRORS, DEAD, SEQ, LEASES = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[9]
local PAUSED, HISTORY = KEYS[10], KEYS[11]
local ENDED, ENDED_EXPIRY = KEYS[12], KEYS[13]
local LANES = {
  { waiting = KEYS[5], active = KEYS[6] },
  { waiting = KEYS[7], active = KEYS[8] },
}
local WAKE_CHANNEL, SHARD = ARGV[1], ARGV[2]

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- An integral number (ms, counts) as its decimal digits. Every number a script hands to a command goes through
-- here: Redis would print a bare Lua number with '%.17g', through glibc's multi-precision float printer, while
-- '%d' takes the integer path, and a claim pays for it per job.
local function int(n)
  return string.format('%d', n)
end

-- Job record: "due|failed|maxAttempts|leaseMs|backoff|callbackUrl|windowMs\n" followed by the payload bytes.
-- `failed` counts the attempts that ended in failure (nacked or lease expired), so a delivery is attempt failed + 1;
-- a delivery in progress lives in `leases`, not in the record, which a claim and an ack therefore neither parse nor
-- rewrite.
-- windowMs is the job's idempotency window: how long its id stays reserved once the job is gone.
-- A field at its default is written empty (failed 0, maxAttempts 10, leaseMs 30000, the default backoff, no
-- callback, window 3600000) and empty fields at the end are left out, so a fresh job with defaults has the header
-- "due\n": every byte of a record is paid once per job in the backlog. JobRecord.java is the Java side.
-- The header never holds '|' or '\n' inside a field: the client validates backoff and callback URL.
local DEFAULT_MAX_ATTEMPTS, DEFAULT_LEASE_MS, DEFAULT_WINDOW_MS = 10, 30000, 3600000

local function decode_job(raw)
  local nl = string.find(raw, '\n', 1, true)
  local f, i = {}, 1
  for part in string.gmatch(string.sub(raw, 1, nl - 1) .. '|', '([^|]*)|') do
    f[i] = part
    i = i + 1
  end
  return { due = tonumber(f[1]), failed = tonumber(f[2] or '') or 0,
           max = tonumber(f[3] or '') or DEFAULT_MAX_ATTEMPTS, lease = tonumber(f[4] or '') or DEFAULT_LEASE_MS,
           backoff = f[5] or '', callback = f[6] or '', window = tonumber(f[7] or '') or DEFAULT_WINDOW_MS,
           payload = string.sub(raw, nl + 1) }
end

local function unless_default(n, default)
  if n == default then return '' end
  return int(n)
end

local function encode_job(j)
  -- One concatenation rather than a joined field table, since a schedule pays for this per job. Trailing empty
  -- fields are dropped: with every field at its default the tail is bare separators and the header is "due".
  local tail = unless_default(j.failed, 0) .. '|' .. unless_default(j.max, DEFAULT_MAX_ATTEMPTS) .. '|'
      .. unless_default(j.lease, DEFAULT_LEASE_MS) .. '|' .. j.backoff .. '|' .. j.callback .. '|'
      .. unless_default(j.window, DEFAULT_WINDOW_MS)
  if tail == '|||||' then return int(j.due) .. '\n' .. j.payload end
  return int(j.due) .. '|' .. string.match(tail, '^(.-)|*$') .. '\n' .. j.payload
end

-- A record's lease in ms, read with plain finds rather than decode_job: the claim of every job pays for it.
local function lease_of_record(raw)
  local nl = string.find(raw, '\n', 1, true)
  -- Searched apart from the payload, which may be long and hold '|' anywhere.
  local header = string.sub(raw, 1, nl - 1)
  local first = 1
  for _ = 1, 3 do
    local bar = string.find(header, '|', first, true)
    -- Most claims: a fresh job whose fields are all at their defaults, so its header is the due time alone.
    if not bar then return DEFAULT_LEASE_MS end
    first = bar + 1
  end
  local last = string.find(header, '|', first, true) or (#header + 1)
  return tonumber(string.sub(header, first, last - 1)) or DEFAULT_LEASE_MS
end

-- A record's idempotency window in ms, read with plain finds rather than decode_job: every ack pays for it.
local function window_of_record(raw)
  local nl = string.find(raw, '\n', 1, true)
  local header = string.sub(raw, 1, nl - 1)
  local first = 1
  for _ = 1, 6 do
    local bar = string.find(header, '|', first, true)
    if not bar then return DEFAULT_WINDOW_MS end
    first = bar + 1
  end
  return tonumber(string.sub(header, first)) or DEFAULT_WINDOW_MS
end

local function load_job(id)
  local raw = redis.call('HGET', JOBS, id)
  if not raw then return nil end
  return decode_job(raw)
end

local function save_job(id, j)
  redis.call('HSET', JOBS, id, encode_job(j))
end

-- The job's lane: 1 for workers, 2 for HTTP callbacks (a job with a callback URL).
local function lane_of(j)
  if j.callback ~= '' then return 2 end
  return 1
end

-- The job's state name at `now` and the sorted set that holds it; nil when the record has no place (never, by
-- invariant 2).
local function locate(id, j, now)
  local lane = LANES[lane_of(j)]
  if redis.call('ZSCORE', lane.waiting, id) then
    if j.due <= now then return 'READY', lane.waiting end
    return 'SCHEDULED', lane.waiting
  end
  if redis.call('ZSCORE', lane.active, id) then return 'ACTIVE', lane.active end
  if redis.call('ZSCORE', DEAD, id) then return 'DEAD', DEAD end
  return nil, nil
end

local function wake(lane_index, due)
  redis.call('PUBLISH', WAKE_CHANNEL, lane_index .. ':' .. SHARD .. ':' .. int(due))
end

-- Whether a job due at `due`, later than `now`, is the earliest of its lane still to come (ties count as earliest).
local function earliest_to_come(lane, due, now)
  return redis.call('ZCOUNT', lane.waiting, '(' .. int(now), '(' .. int(due)) == 0
end

-- Puts a job whose record is saved into its lane's waiting set: READY when due, else SCHEDULED. Wakes the topic's
-- workers when the job is ready now or is the lane's earliest job still to come, so their timers can move forward.
-- A script that places many jobs passes `wakes`, a table of lane index -> earliest due time placed, and calls
-- `publish` once at the end instead.
local function place(id, j, now, wakes)
  local lane_index = lane_of(j)
  local lane = LANES[lane_index]
  redis.call('ZADD', lane.waiting, int(j.due), id)
  local state = 'SCHEDULED'
  if j.due <= now then state = 'READY' end
  if wakes then
    if not wakes[lane_index] or j.due < wakes[lane_index] then wakes[lane_index] = j.due end
  elseif state == 'READY' or earliest_to_come(lane, j.due, now) then
    wake(lane_index, j.due)
  end
  return state
end

-- Sends the wakes of the jobs `place` left in `wakes`: one per lane, for the earliest job placed, when it is due
-- now or is the earliest of its lane still to come (the later jobs of the batch cannot be earlier than it).
local function publish(wakes, now)
  for lane_index, due in pairs(wakes) do
    if due <= now or earliest_to_come(LANES[lane_index], due, now) then wake(lane_index, due) end
  end
end

-- The job whose delivery in progress holds `receipt`, and its lane; or nil and the reason it is refused ('MISSING'
-- or 'STALE').
local function leased_job(id, receipt)
  if receipt ~= '' and redis.call('HGET', LEASES, id) == receipt then
    local j = load_job(id)
    return j, LANES[lane_of(j)]
  end
  if redis.call('HEXISTS', JOBS, id) == 1 then return nil, 'STALE' end
  return nil, 'MISSING'
end

-- Ends the delivery in progress of a job that leaves ACTIVE; its receipt is refused from now on.
local function end_lease(id, lane)
  redis.call('ZREM', lane.active, id)
  redis.call('HDEL', LEASES, id)
end

-- Idempotency window. An id whose job is gone stays reserved until its window ends: `ended` says how and when the
-- job ended, `ended:expiry` when the reservation ends. No sweeper: each call that reserves k ids also deletes up to
-- k + TRIM_EXTRA expired reservations, and each schedule call TRIM_EXTRA, so expired entries are removed at least as
-- fast as entries are added, and no call does more than a few steps of it.
local TRIM_EXTRA = 8

local function trim_ended(now, max)
  local stale = redis.call('ZRANGEBYSCORE', ENDED_EXPIRY, '-inf', int(now), 'LIMIT', 0, int(max))
  if #stale > 0 then
    redis.call('ZREM', ENDED_EXPIRY, unpack(stale))
    redis.call('HDEL', ENDED, unpack(stale))
  end
end

-- Reserves ids whose jobs just ended. `ended` is a list of {id, code, at ms, window ms}; a window of 0 (or one that
-- is already over) reserves nothing. One ZADD and one HSET for the lot.
local function reserve(ended, now)
  local expiries, outcomes = {}, {}
  for _, e in ipairs(ended) do
    local expiry = e[3] + e[4]
    if e[4] > 0 and expiry > now then
      expiries[#expiries + 1] = int(expiry)
      expiries[#expiries + 1] = e[1]
      outcomes[#outcomes + 1] = e[1]
      outcomes[#outcomes + 1] = e[2] .. int(e[3])
    end
  end
  -- A call that reserves nothing (windows off) trims nothing either: the calls that add entries, and schedules,
  -- remove them, and the cost of a window that is off stays one read per ack batch.
  if #outcomes > 0 then
    redis.call('ZADD', ENDED_EXPIRY, unpack(expiries))
    redis.call('HSET', ENDED, unpack(outcomes))
    trim_ended(now, #outcomes / 2 + TRIM_EXTRA)
  end
end

local ENDED_NAMES = { A = 'ACKED', C = 'CANCELLED', D = 'DEAD' }

-- How the job that last had `id` ended, if its id is still reserved at `now`: the outcome's name and its time
-- (ms); else nil. `value` is the id's field of `ended` (false when none); an expired entry is deleted on the way.
local function reservation(id, value, now)
  if not value then return nil end
  local expiry = tonumber(redis.call('ZSCORE', ENDED_EXPIRY, id) or '')
  if expiry and expiry > now then return ENDED_NAMES[string.sub(value, 1, 1)], tonumber(string.sub(value, 2)) end
  redis.call('ZREM', ENDED_EXPIRY, id)
  redis.call('HDEL', ENDED, id)
  return nil
end

-- Acks the deliveries whose ids and receipts are ARGV[first], ARGV[first + 1], ... to the end: each ACTIVE job whose
-- receipt is current is gone, record, lease and last error deleted. Returns one outcome per pair, in order: 'OK',
-- 'STALE' (not this delivery's receipt) or 'MISSING' (no such job). The batch costs a handful of commands whatever
-- its size (HMGET, ZREM, HDEL), because a command call, not the work in it, is what a script mostly pays for; only
-- refused acks cost one more each, to tell STALE from MISSING.
-- Also returns how many were acked, for the history.
local function ack_all(first, now)
  local ids, outcomes = {}, {}
  for i = first, #ARGV, 2 do ids[#ids + 1] = ARGV[i] end
  if #ids == 0 then return outcomes, 0 end
  local receipts = redis.call('HMGET', LEASES, unpack(ids))
  local gone, seen = {}, {}
  for k, id in ipairs(ids) do
    local receipt = ARGV[first + 2 * k - 1]
    if receipt ~= '' and receipts[k] == receipt and not seen[id] then
      seen[id] = true
      outcomes[k] = 'OK'
      gone[#gone + 1] = id
    elseif not seen[id] and redis.call('HEXISTS', JOBS, id) == 1 then
      outcomes[k] = 'STALE'
    else
      outcomes[k] = 'MISSING'
    end
  end
  if #gone > 0 then
    local raws = redis.call('HMGET', JOBS, unpack(gone))
    local ended = {}
    now = now or now_ms()
    for k, id in ipairs(gone) do
      -- A lease without a record breaks invariant 6; such an id is acked without a reservation.
      if raws[k] then ended[#ended + 1] = { id, 'A', now, window_of_record(raws[k]) } end
    end
    reserve(ended, now)
    -- The lease says the job is ACTIVE but not in which lane; removing an id its lane's set does not hold is a no-op.
    for _, lane in ipairs(LANES) do redis.call('ZREM', lane.active, unpack(gone)) end
    redis.call('HDEL', LEASES, unpack(gone))
    redis.call('HDEL', JOBS, unpack(gone))
    redis.call('HDEL', ERRORS, unpack(gone))
  end
  return outcomes, #gone
end

-- The history keeps one field per counter and minute for the last HISTORY_MINUTES minutes. Written by the
-- transition scripts themselves, so a count survives the death of the process that caused it.
local HISTORY_MINUTES = 1440

-- Deletes the minutes that fell out of the window when `minute` is newer than the newest one so far ('t'). Fields
-- exist only for minutes in (t - window, t], so at most one window of them is deleted, and only when a counter
-- starts a new minute: a minute's first batch pays for it, the others do not.
local function trim_history(minute)
  local last = tonumber(redis.call('HGET', HISTORY, 't') or '')
  if last and last >= minute then
    -- A clock that went back by more than the window (a failover to a skewed host) must not leave a field behind.
    if minute <= last - HISTORY_MINUTES then
      redis.call('HDEL', HISTORY, 'p:' .. int(minute), 'f:' .. int(minute))
    end
    return
  end
  if last then
    local stale = {}
    for m = last - HISTORY_MINUTES + 1, math.min(last, minute - HISTORY_MINUTES) do
      stale[#stale + 1] = 'p:' .. int(m)
      stale[#stale + 1] = 'f:' .. int(m)
    end
    if #stale > 0 then redis.call('HDEL', HISTORY, unpack(stale)) end
  end
  redis.call('HSET', HISTORY, 't', int(minute))
end

-- Counts `processed` (acked) and `failed` (nacked or lease expired) jobs in the minute of `now`: one HINCRBY per
-- counter and batch, whatever the batch's size.
local function count_history(now, processed, failed)
  local minute = math.floor(now / 60000)
  local fresh = false
  if processed > 0 and redis.call('HINCRBY', HISTORY, 'p:' .. int(minute), processed) == processed then
    fresh = true
  end
  if failed > 0 and redis.call('HINCRBY', HISTORY, 'f:' .. int(minute), failed) == failed then fresh = true end
  if fresh then trim_history(minute) end
end

-- Whether an id sorts after another as Redis orders sorted-set members of equal score (bytewise). Lua's own string
-- comparison follows the server's collation locale, which need not be bytewise.
local function id_after(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x > y end
  end
  return #a > #b
end
