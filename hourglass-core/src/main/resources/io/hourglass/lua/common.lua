-- Shared by every per-shard script, which pulls it in with an include line (see Script.java).
--
-- KEYS, the same ten in every per-shard script, all under one hash tag {ns:topic:shard}:
--   1 jobs    HASH  id -> job record (see encode_job)
--   2 errors  HASH  id -> last error text (only for jobs that failed at least once)
--   3 dead    ZSET  id -> time of death, ms
--   4 seq     STRING delivery counter; every delivery's receipt is a fresh value of it
--   5 6 7     worker lane:   scheduled (id -> due ms), ready (id -> due ms), active (id -> lease deadline ms)
--   8 9 10    callback lane: the same three, for jobs delivered by HTTP callback
-- ARGV[1] is the topic's wake channel and ARGV[2] this shard's index; a script's own arguments start at ARGV[3].
--
-- A job is in exactly one of the seven sorted sets (invariant 2); the sorted sets hold ids only, the record
-- lives in `jobs` (invariant 6). Time is always the Redis server's (invariant 3).

-- Effects replication: needed on Redis < 7 for a script that reads TIME and then writes.
redis.replicate_commands()

local JOBS, ERRORS, DEAD, SEQ = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local LANES = {
  { scheduled = KEYS[5], ready = KEYS[6], active = KEYS[7] },
  { scheduled = KEYS[8], ready = KEYS[9], active = KEYS[10] },
}
local WAKE_CHANNEL, SHARD = ARGV[1], ARGV[2]

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function int(n)
  return string.format('%.0f', n)
end

-- Job record: "due|attempt|maxAttempts|leaseMs|receipt|backoff|callbackUrl\n" followed by the payload bytes.
-- A field at its default is written empty (attempt 0, maxAttempts 10, leaseMs 30000, no receipt, the default
-- backoff, no callback) and empty fields at the end are left out, so a fresh job with defaults has the header
-- "due\n": every byte of a record is paid once per job in the backlog. JobRecord.java is the Java side.
-- The header never holds '|' or '\n' inside a field: the client validates backoff and callback URL.
local DEFAULT_MAX_ATTEMPTS, DEFAULT_LEASE_MS = 10, 30000

local function decode_job(raw)
  local nl = string.find(raw, '\n', 1, true)
  local f, i = {}, 1
  for part in string.gmatch(string.sub(raw, 1, nl - 1) .. '|', '([^|]*)|') do
    f[i] = part
    i = i + 1
  end
  return { due = tonumber(f[1]), attempt = tonumber(f[2] or '') or 0,
           max = tonumber(f[3] or '') or DEFAULT_MAX_ATTEMPTS, lease = tonumber(f[4] or '') or DEFAULT_LEASE_MS,
           receipt = f[5] or '', backoff = f[6] or '', callback = f[7] or '', payload = string.sub(raw, nl + 1) }
end

local function unless_default(n, default)
  if n == default then return '' end
  return int(n)
end

local function encode_job(j)
  local f = { int(j.due), unless_default(j.attempt, 0), unless_default(j.max, DEFAULT_MAX_ATTEMPTS),
              unless_default(j.lease, DEFAULT_LEASE_MS), j.receipt, j.backoff, j.callback }
  local n = #f
  while n > 1 and f[n] == '' do n = n - 1 end
  return table.concat(f, '|', 1, n) .. '\n' .. j.payload
end

-- Where a record's header is cut: the positions of the '|' that end fields 1, 2, ... up to `count` of them (fewer
-- when the header has fewer fields), and of the newline that ends the header. With header_field, the hot paths
-- (claim, ack) read and edit a few fields with plain finds instead of paying for decode_job and encode_job.
local function header_cuts(raw, count)
  local nl = string.find(raw, '\n', 1, true)
  -- Searched apart from the payload, which may be long and hold '|' anywhere: the header's positions are the same.
  local header = string.sub(raw, 1, nl)
  local bars, pos = {}, 1
  while #bars < count do
    local bar = string.find(header, '|', pos, true)
    if not bar then break end
    bars[#bars + 1] = bar
    pos = bar + 1
  end
  return bars, nl
end

-- Field i of a record's header cut by header_cuts (which must have looked for at least i - 1 bars); '' when the
-- header has fewer fields.
local function header_field(raw, bars, nl, i)
  local first = 1
  if i > 1 then
    if not bars[i - 1] then return '' end
    first = bars[i - 1] + 1
  end
  return string.sub(raw, first, (bars[i] or nl) - 1)
end

-- A record's leased copy, and its lease ms: attempt + 1 and `receipt`; every other field and the payload as they
-- were.
local function leased_record(raw, receipt)
  local nl = string.find(raw, '\n', 1, true)
  if not string.find(string.sub(raw, 1, nl), '|', 1, true) then
    -- Most claims: a fresh job whose fields are all at their defaults, so its header is the due time alone. The
    -- general path below gives the same bytes with about twice the string work.
    return string.sub(raw, 1, nl - 1) .. '|1|||' .. receipt .. string.sub(raw, nl), DEFAULT_LEASE_MS
  end
  local bars
  bars, nl = header_cuts(raw, 5)
  local lease = header_field(raw, bars, nl, 4)
  local attempt = (tonumber(header_field(raw, bars, nl, 2)) or 0) + 1
  return header_field(raw, bars, nl, 1) .. '|' .. int(attempt) .. '|' .. header_field(raw, bars, nl, 3) .. '|'
      .. lease .. '|' .. receipt .. string.sub(raw, bars[5] or nl), tonumber(lease) or DEFAULT_LEASE_MS
end

local function load_job(id)
  local raw = redis.call('HGET', JOBS, id)
  if not raw then return nil end
  return decode_job(raw)
end

local function save_job(id, j)
  redis.call('HSET', JOBS, id, encode_job(j))
end

-- The lane of a job with this callback URL: 1 for workers, 2 for HTTP callbacks.
local function lane_of_callback(callback)
  if callback ~= '' then return 2 end
  return 1
end

local function lane_of(j)
  return lane_of_callback(j.callback)
end

-- The sorted set that holds the job, and its state name; nil when the record has no place (never, by invariant 2).
local function locate(id, j)
  local lane = LANES[lane_of(j)]
  if redis.call('ZSCORE', lane.scheduled, id) then return 'SCHEDULED', lane.scheduled end
  if redis.call('ZSCORE', lane.ready, id) then return 'READY', lane.ready end
  if redis.call('ZSCORE', lane.active, id) then return 'ACTIVE', lane.active end
  if redis.call('ZSCORE', DEAD, id) then return 'DEAD', DEAD end
  return nil, nil
end

local function wake(lane_index, due)
  redis.call('PUBLISH', WAKE_CHANNEL, lane_index .. ':' .. SHARD .. ':' .. int(due))
end

-- Announces a lane's new earliest due time now (wakes nil), or leaves it in `wakes`, a table of lane index -> due
-- time, for `publish` to send once at the end of a script that places many jobs.
local function announce(wakes, lane_index, due)
  if not wakes then
    wake(lane_index, due)
  elseif not wakes[lane_index] or due < wakes[lane_index] then
    wakes[lane_index] = due
  end
end

local function publish(wakes)
  for lane_index, due in pairs(wakes) do wake(lane_index, due) end
end

-- Puts a job whose record is saved into its lane: READY when due, else SCHEDULED. Wakes the topic's workers when
-- the job is ready now or has become the earliest scheduled one, so their timers can move forward (see announce).
local function place(id, j, now, wakes)
  local lane_index = lane_of(j)
  local lane = LANES[lane_index]
  if j.due <= now then
    redis.call('ZADD', lane.ready, j.due, id)
    announce(wakes, lane_index, j.due)
    return 'READY'
  end
  redis.call('ZADD', lane.scheduled, j.due, id)
  if redis.call('ZRANGE', lane.scheduled, 0, 0)[1] == id then
    announce(wakes, lane_index, j.due)
  end
  return 'SCHEDULED'
end

-- The delivery that holds `receipt`, or nil and the reason it is refused ('MISSING' or 'STALE').
local function leased_job(id, receipt)
  local j = load_job(id)
  if not j then return nil, 'MISSING' end
  local lane = LANES[lane_of(j)]
  if receipt == '' or j.receipt ~= receipt or not redis.call('ZSCORE', lane.active, id) then
    return nil, 'STALE'
  end
  return j, lane
end

local function earliest_score(key)
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if #first == 0 then return -1 end
  return tonumber(first[2])
end

-- Acks the deliveries whose ids and receipts are ARGV[first], ARGV[first + 1], ... to the end: each ACTIVE job whose
-- receipt is current is gone, record and last error deleted. Returns one outcome per pair, in order: 'OK', 'STALE'
-- (not this delivery's receipt) or 'MISSING' (no such job). The batch costs a handful of commands whatever its
-- size (HMGET, ZMSCORE, ZREM, HDEL), because a command call, not the work in it, is what a script mostly pays for.
local function ack_all(first)
  local ids, outcomes = {}, {}
  for i = first, #ARGV, 2 do ids[#ids + 1] = ARGV[i] end
  if #ids == 0 then return outcomes end
  local raws = redis.call('HMGET', JOBS, unpack(ids))
  local candidates = { {}, {} }
  local seen = {}
  for k, id in ipairs(ids) do
    local raw, receipt = raws[k], ARGV[first + 2 * k - 1]
    if not raw or seen[id] then
      outcomes[k] = 'MISSING'
    else
      local bars, nl = header_cuts(raw, 6)
      if receipt == '' or header_field(raw, bars, nl, 5) ~= receipt then
        outcomes[k] = 'STALE'
      else
        seen[id] = true
        local c = candidates[lane_of_callback(header_field(raw, bars, nl, 7))]
        c[#c + 1] = k
      end
    end
  end
  local gone = {}
  for lane_index, ks in ipairs(candidates) do
    if #ks > 0 then
      local lane_ids = {}
      for i, k in ipairs(ks) do lane_ids[i] = ids[k] end
      local scores = redis.call('ZMSCORE', LANES[lane_index].active, unpack(lane_ids))
      local leaving = {}
      for i, k in ipairs(ks) do
        if scores[i] then
          outcomes[k] = 'OK'
          leaving[#leaving + 1] = ids[k]
          gone[#gone + 1] = ids[k]
        else
          outcomes[k] = 'STALE'
        end
      end
      if #leaving > 0 then redis.call('ZREM', LANES[lane_index].active, unpack(leaving)) end
    end
  end
  if #gone > 0 then
    redis.call('HDEL', JOBS, unpack(gone))
    redis.call('HDEL', ERRORS, unpack(gone))
  end
  return outcomes
end
