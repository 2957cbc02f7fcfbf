-- Shared by every per-shard script, which pulls it in with an include line (see Script.java).
--
-- KEYS, the same eighteen in every per-shard script, all under one hash tag {ns:topic:shard}:
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
--                   deleted), then the epoch ms it happened; only ids still inside their idempotency window or the
--                   retention of completed jobs. A retained completed job's value goes on with '|', the result's
--                   length ('' for no result), a newline, the result bytes and the job's record as it was stored:
--                   'A<ms>|<length>\n<result><record>' (see retained_job). An entry kept longer or shorter than
--                   the stored default window has its keep after the time: 'A<ms>+<keep ms>...' (ended_end). Fields
--                   '~<id>' count the id's stale elements in `ended:order` (forget_ended)
--  13 ended:order LIST ids of `ended` in the order they were added, the oldest first, but for retained completed
--                   jobs (those are in `completed`); trimmed from the head a few entries per call (see trim_ended)
--  14 events  STREAM completion events for the job history, one entry per script call, capped (see history_flush);
--                   written only when on
--  15 flow    HASH  the topic's flow control and this shard's share of it (see flow.lua)
--  16 17     worker lane, callback lane: prio (id -> band * 2^42 + due ms), the waiting jobs whose priority is
--            not the default (see score_of); a job at the default priority waits in its lane's `waiting`
--  18 completed ZSET id -> when the entry in `ended` of a retained completed job ends, ms: those entries are not in
--                   `ended:order` but here, so the inspector counts (ZCOUNT from now) and pages them exactly, expired
--                   ones excluded by their score before any call trims them (see reserve, trim_ended). Each entry of
--                   `ended` is in exactly one of the two, so the index costs no entry of its own.
-- (the earlier keys kept their places as keys were added, so every script receives all eighteen).
-- ARGV[1] is the topic's wake channel and ARGV[2] this shard's index; a script's own arguments start at ARGV[3].
--
-- A job is in exactly one of the seven sorted sets of jobs (invariant 2); the sorted sets hold ids only, the record lives
-- in `jobs` (invariant 6). A waiting job is SCHEDULED until its due time and READY from then on, by the Redis
-- server's clock (invariant 3): promotion moves nothing, and a claim takes the due jobs straight from `waiting`.
-- Exactly the ACTIVE jobs have an entry in `leases`.

-- Effects replication: needed on Redis < 7 for a script that reads TIME and then writes. (A Redis Functions library
-- leaves this line out: functions always replicate effects, and have no replicate_commands.)
redis.replicate_commands()

-- What each call reads from its keys and arguments. Declared here and set in the per-call block below, which a
-- script run by EVAL runs where it stands, and which a Redis Functions library (ScriptLibrary.java), whose top level
-- runs once at load, runs at the start of each function instead.
local JOBS, ERRORS, DEAD, SEQ, LEASES, PAUSED, HISTORY, ENDED, ENDED_ORDER, COMPLETED, LEGACY_EXPIRY, LANES
local WAKE_CHANNEL, SHARD, EVENTS, EVENTS_CAP, EVENT_PAYLOAD_LIMIT, FLOW
-- The events of this call for the job history (add_event, history_flush).
local events_batch, events_count, events_at
-- @per-call begin
JOBS, ERRORS, DEAD, SEQ, LEASES = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[9]
PAUSED, HISTORY = KEYS[10], KEYS[11]
ENDED, ENDED_ORDER = KEYS[12], KEYS[13]
COMPLETED = KEYS[18]
-- The sorted set (id -> end ms) that versions before `ended:order` kept beside `ended`; in the same slot. Read and
-- drained by the scripts until it is gone (lookup_end, trim_ended), so an upgrade needs no step of its own. Nil in
-- schedules.lua, which includes this file with keys of its own.
LEGACY_EXPIRY = ENDED and ENDED .. ':expiry'
LANES = {
  { waiting = KEYS[5], active = KEYS[6], prio = KEYS[16] },
  { waiting = KEYS[7], active = KEYS[8], prio = KEYS[17] },
}
WAKE_CHANNEL, SHARD = ARGV[1], ARGV[2]
EVENTS, EVENTS_CAP, EVENT_PAYLOAD_LIMIT = KEYS[14], 0, 0
-- With history on, ARGV[2] is '<shard>/<stream cap>/<payload limit bytes>' rather than '<shard>': the flag travels
-- in an argument every script already has, so no script's own arguments move. Off, this is one plain find a call.
if string.find(SHARD, '/', 1, true) then
  local shard, cap, limit = string.match(SHARD, '^(%d+)/(%d+)/(%d+)$')
  SHARD, EVENTS_CAP, EVENT_PAYLOAD_LIMIT = shard, tonumber(cap), tonumber(limit)
end
-- The shard's flow control hash (flow.lua).
FLOW = KEYS[15]
events_batch, events_count, events_at = {}, 0, nil
-- @per-call end

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

-- Job record: "due|failed|maxAttempts|leaseMs|backoff|callbackUrl|windowMs|firstDue|expiresAt|onExpiry|failureUrl|"
-- "priority|deferrals|dispatchDeadlineMs\n" followed by the payload bytes.
-- `failed` counts the attempts that ended in failure (nacked or lease expired), so a delivery is attempt failed + 1;
-- a delivery in progress lives in `leases`, not in the record, which a claim and an ack therefore neither parse nor
-- rewrite.
-- windowMs is the job's idempotency window: how long its id stays reserved once the job is gone.
-- firstDue is the due time its producer gave it (schedule, reschedule), kept when a retry, run-now or requeue moves
-- `due`; empty while the two are equal. expiresAt (epoch ms, empty: never) is when an undelivered job expires, and
-- onExpiry what then happens ('' goes to the dead letters, 'drop' deletes it). failureUrl is POSTed a failure notice
-- when the job goes to the dead letters (notify_failure). priority (-5 to 5, empty: 0) orders the due jobs of a lane.
-- deferrals counts the callback deliveries whose receiver answered 429 or 503 with Retry-After and which were
-- deferred without charging an attempt (nack.lua); dispatchDeadlineMs caps how long one callback request of the job may take (0: the dispatcher's own).
-- A field at its default is written empty (failed 0, maxAttempts 10, leaseMs 30000, the default backoff, no
-- callback, window 3600000) and empty fields at the end are left out, so a fresh job with defaults has the header
-- "due\n": every byte of a record is paid once per job in the backlog. JobRecord.java is the Java side.
-- The header never holds '|' or '\n' inside a field: the client validates backoff and callback URL.
local DEFAULT_MAX_ATTEMPTS, DEFAULT_LEASE_MS, DEFAULT_WINDOW_MS = 10, 30000, 3600000

-- A bare record: the payload alone, with no header line. schedule.lua writes one for a worker job whose every field
-- is at its stored default and whose payload does not begin with a digit or '-', the bytes a header begins with; a
-- job with defaults then costs Redis its payload and nothing more (a 30-byte payload fits jemalloc's 32-byte size
-- class, where the header "due\n" took it to the 48-byte one). The due time of a bare record is kept where the job is:
-- its score in the worker lane's `waiting` while it waits, and the '@<due>' its receipt ends with while it is ACTIVE
-- (bare_due). A bare job never has another place: every transition that moves it elsewhere, or that changes a field,
-- rewrites its record with encode_job, which always writes a header.
local function is_bare(raw)
  local b = string.byte(raw, 1)
  return not b or b > 57 or (b < 48 and b ~= 45)
end

-- The due time a receipt carries: a bare record's, appended by the claim ('@<due>', the digits Redis printed for its
-- score); nil for any other receipt.
local function due_of_receipt(receipt)
  return tonumber(string.match(receipt, '@([^@~]+)$') or '')
end

-- The due time of the job `id`, whose record is bare: its score in the worker lane's `waiting`, or its receipt's. A
-- bare record anywhere else breaks the invariant above; its job is then taken as due now, rather than fail every call
-- that meets it.
local function bare_due(id)
  local score = redis.call('ZSCORE', LANES[1].waiting, id)
  if score then return tonumber(score) end
  return due_of_receipt(redis.call('HGET', LEASES, id) or '') or now_ms()
end

-- Decodes a record; `due` is the due time of a bare record (bare_due), and is not looked at for any other.
local function decode_job(raw, due)
  if is_bare(raw) then
    return { due = due, failed = 0, max = DEFAULT_MAX_ATTEMPTS, lease = DEFAULT_LEASE_MS, backoff = '', callback = '',
             window = DEFAULT_WINDOW_MS, on_expiry = '', failure = '', priority = 0, deferrals = 0, deadline = 0,
             payload = raw }
  end
  local nl = string.find(raw, '\n', 1, true)
  local f, i = {}, 1
  for part in string.gmatch(string.sub(raw, 1, nl - 1) .. '|', '([^|]*)|') do
    f[i] = part
    i = i + 1
  end
  return { due = tonumber(f[1]), failed = tonumber(f[2] or '') or 0,
           max = tonumber(f[3] or '') or DEFAULT_MAX_ATTEMPTS, lease = tonumber(f[4] or '') or DEFAULT_LEASE_MS,
           backoff = f[5] or '', callback = f[6] or '', window = tonumber(f[7] or '') or DEFAULT_WINDOW_MS,
           first = tonumber(f[8] or ''), expires = tonumber(f[9] or ''), on_expiry = f[10] or '',
           failure = f[11] or '', priority = tonumber(f[12] or '') or 0, deferrals = tonumber(f[13] or '') or 0,
           deadline = tonumber(f[14] or '') or 0, payload = string.sub(raw, nl + 1) }
end

-- The record with its header: a bare one with the header "due\n" that it stands for, any other as it is. What a
-- script hands to the client, and what a retained completed job keeps, is always read this way.
local function with_header(raw, due)
  if is_bare(raw) then return int(due) .. '\n' .. raw end
  return raw
end

local function unless_default(n, default)
  if n == default then return '' end
  return int(n)
end

-- The tail of a header whose fields after `due` are all at their defaults: thirteen empty fields. Written out, as the
-- patterns below are, since a Redis Functions library runs this file's top level where Redis 7.0 has no `string`.
local EMPTY_TAIL = '||||||||||||'

-- schedule.lua's stored_default decides the same "every field at its default" from a schedule's arguments, before
-- any job table exists: a field or default added here must be added there too.
local function encode_job(j)
  -- One concatenation rather than a joined field table, since a schedule pays for this per job. Trailing empty
  -- fields are dropped: with every field at its default the tail is bare separators and the header is "due".
  local tail = unless_default(j.failed, 0) .. '|' .. unless_default(j.max, DEFAULT_MAX_ATTEMPTS) .. '|'
      .. unless_default(j.lease, DEFAULT_LEASE_MS) .. '|' .. j.backoff .. '|' .. j.callback .. '|'
      .. unless_default(j.window, DEFAULT_WINDOW_MS) .. '|' .. unless_default(j.first or j.due, j.due) .. '|'
      .. unless_default(j.expires or 0, 0) .. '|' .. (j.on_expiry or '') .. '|' .. (j.failure or '')
      .. '|' .. unless_default(j.priority or 0, 0) .. '|' .. unless_default(j.deferrals or 0, 0) .. '|'
      .. unless_default(j.deadline or 0, 0)
  if tail == EMPTY_TAIL then return int(j.due) .. '\n' .. j.payload end
  return int(j.due) .. '|' .. string.match(tail, '^(.-)|*$') .. '\n' .. j.payload
end

-- A record's lease in ms, read with plain finds rather than decode_job: the claim of every job pays for it.
local function lease_of_record(raw)
  if is_bare(raw) then return DEFAULT_LEASE_MS end
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
  if is_bare(raw) then return DEFAULT_WINDOW_MS end
  local nl = string.find(raw, '\n', 1, true)
  local header = string.sub(raw, 1, nl - 1)
  local first = 1
  for _ = 1, 6 do
    local bar = string.find(header, '|', first, true)
    if not bar then return DEFAULT_WINDOW_MS end
    first = bar + 1
  end
  local last = string.find(header, '|', first, true) or (#header + 1)
  return tonumber(string.sub(header, first, last - 1)) or DEFAULT_WINDOW_MS
end

-- The idempotency window a receipt carries: the claim appends '~' and the record's window field ('' at the stored
-- default) to each receipt, so that an ack reads the window from the receipt it checks anyway, not from the record.
-- A bare record's receipt ends '~@<due>' instead (receipt_tag): its window is the default, and its due time has no
-- other place while the job is ACTIVE.
-- Plain finds first: most records have no header field but the due time.
local WINDOW_FIELD = '^[^|\n]*|[^|\n]*|[^|\n]*|[^|\n]*|[^|\n]*|[^|\n]*|([^|\n]*)'

local function window_tag(raw)
  local bar = string.find(raw, '|', 1, true)
  if not bar or bar > string.find(raw, '\n', 1, true) then return '~' end
  return '~' .. (string.match(raw, WINDOW_FIELD) or '')
end

-- What a claim appends to the receipt of a job whose record is `raw`, taken at the score `score` (the digits Redis
-- printed) of its lane's `waiting`: window_tag for a record with a header, '~@' and its due time for a bare one.
local function receipt_tag(raw, score)
  if is_bare(raw) then return '~@' .. score end
  return window_tag(raw)
end

-- The window in ms a receipt carries (receipt_tag), or nil for a receipt from a version before that, whose job's
-- record then tells.
local function window_of_receipt(receipt)
  local tilde = string.find(receipt, '~', 1, true)
  if not tilde then return nil end
  -- '~' at the end, or '~@<due>' (64 is '@'): the stored default.
  if tilde == #receipt or string.byte(receipt, tilde + 1) == 64 then return DEFAULT_WINDOW_MS end
  return tonumber(string.sub(receipt, tilde + 1))
end

-- The job `id`, decoded, and its record as stored; nil when it has none. `due`, when given, is the due time of a bare
-- record (a receipt's); without it a bare record's is looked up (bare_due).
local function load_job(id, due)
  local raw = redis.call('HGET', JOBS, id)
  if not raw then return nil end
  if is_bare(raw) and not due then due = bare_due(id) end
  return decode_job(raw, due), raw
end

local function save_job(id, j)
  redis.call('HSET', JOBS, id, encode_job(j))
end

-- The job's lane: 1 for workers, 2 for HTTP callbacks (a job with a callback URL).
local function lane_of(j)
  if j.callback ~= '' then return 2 end
  return 1
end

-- Priorities. A waiting job at the default priority 0 is in its lane's `waiting`, scored by its due time, as if
-- priorities did not exist; one with another priority is in its lane's `prio`, scored band * 2^42 + due, where the
-- band (0 for priority 5 to 10 for priority -5) puts higher priorities first. 2^42 ms is the year 2109, and
-- 11 * 2^42 < 2^53, so every score is an exact double. The due jobs of band b are the scores in
-- [b * 2^42, b * 2^42 + now]; a claim walks only the bands that hold jobs (bands_in_use).
local PRIORITY_MAX, BAND = 5, 4398046511104
local DEFAULT_BAND, LAST_BAND = PRIORITY_MAX, 2 * PRIORITY_MAX

-- The sorted set that holds the job while it waits, in its lane.
-- (A job table without a priority, such as a failure notice's, has the default.)
local function waiting_of(j)
  local lane = LANES[lane_of(j)]
  if (j.priority or 0) == 0 then return lane.waiting end
  return lane.prio
end

-- The job's score in waiting_of(j). A due time outside [0, 2^42) (before 1970, after 2109) is clamped into its band.
local function score_of(j)
  if (j.priority or 0) == 0 then return j.due end
  return (PRIORITY_MAX - j.priority) * BAND + math.min(math.max(j.due, 0), BAND - 1)
end

-- The bands from `first` to `last` that hold jobs in the `prio` set `key`, in order: one read per band in use, and
-- one more to find there is none after.
local function bands_in_use(key, first, last)
  local out, from = {}, first
  while from <= last do
    local head = redis.call('ZRANGEBYSCORE', key, int(from * BAND), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if not head[2] then break end
    local band = math.floor(tonumber(head[2]) / BAND)
    if band > last then break end
    out[#out + 1] = band
    from = band + 1
  end
  return out
end

-- Over the `prio` set `key`: the earliest due time of its jobs still to come at `now` (nil: none) and, when
-- `counting`, the jobs due, those to come and the earliest due time of the due ones. O(log N) per band in use; a set
-- that does not exist costs one read.
local function prio_summary(key, now, counting)
  local ready, later, oldest, next_due = 0, 0, nil, nil
  if redis.call('EXISTS', key) == 0 then return nil, 0, 0, nil end
  for _, band in ipairs(bands_in_use(key, 0, LAST_BAND)) do
    local base = band * BAND
    if counting then
      local due = redis.call('ZCOUNT', key, int(base), int(base + now))
      ready = ready + due
      later = later + redis.call('ZCOUNT', key, '(' .. int(base + now), '(' .. int(base + BAND))
      if due > 0 then
        local first = tonumber(redis.call('ZRANGEBYSCORE', key, int(base), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2])
        if not oldest or first - base < oldest then oldest = first - base end
      end
    end
    local head = redis.call('ZRANGEBYSCORE', key, '(' .. int(base + now), '(' .. int(base + BAND), 'WITHSCORES',
        'LIMIT', 0, 1)
    if head[2] and (not next_due or tonumber(head[2]) - base < next_due) then next_due = tonumber(head[2]) - base end
  end
  return next_due, ready, later, oldest
end

-- The job's state name at `now` and the sorted set that holds it; nil when the record has no place (never, by
-- invariant 2).
local function locate(id, j, now)
  local lane = LANES[lane_of(j)]
  if redis.call('ZSCORE', waiting_of(j), id) then
    if j.due <= now then return 'READY', waiting_of(j) end
    return 'SCHEDULED', waiting_of(j)
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
  if redis.call('ZCOUNT', lane.waiting, '(' .. int(now), '(' .. int(due)) > 0 then return false end
  local prio_next = prio_summary(lane.prio, now, false)
  return not prio_next or prio_next >= due
end

-- Puts a job whose record is saved into its lane's waiting set: READY when due, else SCHEDULED. Wakes the topic's
-- workers when the job is ready now or is the lane's earliest job still to come, so their timers can move forward.
-- A script that places many jobs passes `wakes`, a table of lane index -> earliest due time placed, and calls
-- `publish` once at the end instead.
local function place(id, j, now, wakes)
  local lane_index = lane_of(j)
  local lane = LANES[lane_index]
  redis.call('ZADD', waiting_of(j), int(score_of(j)), id)
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
    local j = load_job(id, due_of_receipt(receipt))
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

-- Completion events for the job history, when history is on (EVENTS_CAP > 0), written in the script that ends the
-- job, so no outcome is lost when a process dies between the transition and the archive. A script call appends ONE
-- stream entry holding all the events of its transitions (history_flush, called once before the script returns), so
-- an ack batch pays one XADD for its jobs rather than one each. The entry's fields: 'at' (ms, the call's time, when
-- every event of it happened), 'count' (events in it), 'events' (the events one after another, each a header line
-- and then its text fields' bytes, with no separator between events):
--   <code><attempts>|<maxAttempts>|<due ms>|<payloadBytes>|<id length>|<error length>|<callbackUrl length>|
--     <payload length>\n<id><error><callbackUrl><payload>
-- where code is A(CKED), D(EAD), C(ANCELLED), E(XPIRED: never delivered before its expiry, dead-lettered or
-- dropped) or T(RIMMED: a dead letter deleted by its topic's limits), and lengths are in bytes, empty for a field
-- the event has not (no error, a worker job, the payload not copied). StorageFormat.historyEvents in Java reads it, and reads
-- the one-event entries of earlier versions too (fields id, outcome, attempts, ...). The topic and shard are the
-- stream's own. The stream is capped with MAXLEN ~ in entries, so an archiver that is down for long loses the
-- oldest calls' events rather than Redis its memory.
local EVENT_CODES = { ACKED = 'A', DEAD = 'D', CANCELLED = 'C', EXPIRED = 'E', TRIMMED = 'T' }
local DEFAULT_MAX_ATTEMPTS_TEXT = '10'

-- Appends one encoded event; `attempts`, `max`, `due`, `size` are decimal digits, `err`, `callback` and `payload`
-- text or nil for none.
local function add_event(code, id, attempts, max, due, size, err, callback, payload, now)
  local err_length, callback_length, payload_length = '', '', ''
  if err then err_length = int(#err) else err = '' end
  if callback then callback_length = int(#callback) else callback = '' end
  if payload then payload_length = int(#payload) else payload = '' end
  events_count = events_count + 1
  events_batch[events_count] = code .. attempts .. '|' .. max .. '|' .. due .. '|' .. size .. '|' .. int(#id) .. '|'
      .. err_length .. '|' .. callback_length .. '|' .. payload_length .. '\n' .. id .. err .. callback .. payload
  events_at = now
end

-- The event of a job that ends: `j` is the decoded record, `outcome` ACKED, DEAD, CANCELLED, EXPIRED or TRIMMED,
-- `attempts` the deliveries the job had, `err` its last error (false: none; nil: read from `errors`, so call it before
-- the error is deleted). A payload over the limit is left out and only its size kept. Written by history_flush.
local function history_event(id, outcome, j, attempts, now, err)
  if EVENTS_CAP == 0 then return end
  if err == nil then err = redis.call('HGET', ERRORS, id) end
  local callback, payload = nil, nil
  if j.callback ~= '' then callback = j.callback end
  if EVENT_PAYLOAD_LIMIT > 0 and #j.payload <= EVENT_PAYLOAD_LIMIT then payload = j.payload end
  add_event(EVENT_CODES[outcome], id, int(attempts), int(j.max), int(j.due), int(#j.payload), err or nil, callback,
      payload, now)
end

-- Writes the events this call appended as one stream entry; nothing when it appended none. Every script that ends
-- jobs calls it once, after its last transition and before it returns.
local function history_flush()
  if events_count == 0 then return end
  redis.call('XADD', EVENTS, 'MAXLEN', '~', int(EVENTS_CAP), '*', 'at', int(events_at), 'count', int(events_count),
      'events', table.concat(events_batch, '', 1, events_count))
  events_batch, events_count = {}, 0
end

-- Idempotency window. An id whose job is gone stays reserved until its window ends: `ended` says how and when the
-- job ended (and for how long, when that is not the stored default window: ended_end), `ended:order` lists the ids
-- in the order their entries were added. A lookup reads the entry's own end, so an expired entry is free even while
-- it waits for its turn to be deleted. No sweeper: each call that reserves k ids also deletes up to k + TRIM_EXTRA
-- expired entries from the head of the order, and each schedule call TRIM_EXTRA, so expired entries are removed at
-- least as fast as entries are added, and no call does more than a few steps of it. A LIST element costs the id and
-- two bytes, against a sorted set's ~130 B per id, and an append costs O(1). A retained completed job's entry is not
-- in the order but in `completed`, by its end, so the inspector counts and pages those exactly; the trim deletes
-- up to as many of them as of the others.
local TRIM_EXTRA = 8
-- What a claim that leases nothing (an idle worker's sweep, about once a second) deletes at most of what expired
-- while no call added entries, so that a topic whose traffic stopped gives its memory back without a sweeper.
local IDLE_TRIM = 1000
-- The start of a field of `ended` that counts an id's stale elements in `ended:order` (ids cannot start so):
-- '~<id>' -> how many of the id's elements the trim is to pass over before the one of its entry (forget_ended).
local STALE = '~'

-- When an `ended` value ends (ms), the time of its outcome (ms), and its keep when the value has one of its own
-- ('+<ms>' after the time; nil: the stored default window). The value's tail is not looked at.
local function ended_end(value)
  local at, keep = string.match(value, '^.(%d+)%+?(%d*)')
  at, keep = tonumber(at), tonumber(keep)
  return at + (keep or DEFAULT_WINDOW_MS), at, keep
end

-- The end of `id`'s entry `value` for a lookup. An entry written by a version before `ended:order` has its end in
-- the legacy sorted set rather than in its value; forget_ended keeps an id out of that set once it is reused.
local function lookup_end(id, value)
  local ends, at, keep = ended_end(value)
  if not keep then ends = tonumber(redis.call('ZSCORE', LEGACY_EXPIRY, id) or '') or ends end
  return ends, at
end

-- Deletes up to `max` retained completed jobs whose entries are over. Run by the calls that add such entries and by
-- those that add none (schedules, idle claims), so an ack batch of a topic without retention does not pay for it.
local function trim_completed(now, max)
  local done = redis.call('ZRANGEBYSCORE', COMPLETED, '-inf', int(now), 'LIMIT', 0, int(max))
  if #done > 0 then
    redis.call('ZREM', COMPLETED, unpack(done))
    redis.call('HDEL', ENDED, unpack(done))
  end
end

-- Deletes up to `max` expired entries, the oldest first: pops the head of `ended:order` while its entry is over (or
-- the element is stale) and stops at the first entry still running. When the caller just added entries ending by
-- `newest` (ms; nil: none), an entry ending later than that goes to the tail instead, so that one long keep does not
-- hold back the shorter ones queued behind it. A call that added none (a schedule, an idle claim) also deletes up to
-- `max` expired retained jobs (trim_completed) and expired entries of a legacy sorted set, while one is left; an ack
-- batch does not pay for those reads.
local function trim_ended(now, max, newest)
  local taken, chunk, running = 0, 1, false
  local expired, rotated, passed, gone = {}, {}, {}, {}
  while taken < max and not running do
    local ids = redis.call('LRANGE', ENDED_ORDER, taken, taken + chunk - 1)
    if #ids == 0 then break end
    local fields = {}
    for k, id in ipairs(ids) do
      fields[2 * k - 1] = id
      fields[2 * k] = STALE .. id
    end
    local values = redis.call('HMGET', ENDED, unpack(fields))
    for k, id in ipairs(ids) do
      local value, stale = values[2 * k - 1], tonumber(values[2 * k] or '') or 0
      if stale > (passed[id] or 0) then
        passed[id] = (passed[id] or 0) + 1
      elseif value and not gone[id] and not string.find(value, '|', 1, true) then
        -- (A retained completed job's entry lives in `completed`: an element of its id here is left over, and goes.)
        local ends = ended_end(value)
        if ends <= now then
          gone[id] = true
          expired[#expired + 1] = id
        elseif newest and ends > newest then
          rotated[#rotated + 1] = id
        else
          running = true
          break
        end
      end
      taken = taken + 1
    end
    -- The first read is one element: most calls find an entry still running at the head and stop there.
    chunk = math.min(max - taken, 64)
  end
  if taken > 0 then redis.call('LTRIM', ENDED_ORDER, taken, -1) end
  if #rotated > 0 then redis.call('RPUSH', ENDED_ORDER, unpack(rotated)) end
  if #expired > 0 then redis.call('HDEL', ENDED, unpack(expired)) end
  for id, n in pairs(passed) do
    if redis.call('HINCRBY', ENDED, STALE .. id, -n) <= 0 then redis.call('HDEL', ENDED, STALE .. id) end
  end
  if newest then return end
  trim_completed(now, max)
  local legacy = redis.call('ZRANGEBYSCORE', LEGACY_EXPIRY, '-inf', int(now), 'LIMIT', 0, int(max))
  if #legacy > 0 then
    redis.call('ZREM', LEGACY_EXPIRY, unpack(legacy))
    redis.call('HDEL', ENDED, unpack(legacy))
  end
end

-- Deletes the entry of `id`, which has one, before it is over or trimmed (a schedule that creates the id's job
-- again): its element, if it has one, stays in `ended:order` and is counted as stale, so the trim passes over it rather than wait
-- for the id's next entry. Every deletion of an entry other than the trim's goes through here.
local function forget_ended(id)
  redis.call('HDEL', ENDED, id)
  -- A retained completed job's entry, and a legacy one, have no element in the order.
  if redis.call('ZREM', COMPLETED, id) == 1 then return end
  if redis.call('ZREM', LEGACY_EXPIRY, id) == 0 then redis.call('HINCRBY', ENDED, STALE .. id, 1) end
end

-- Reserves ids whose jobs just ended. `ended` is a list of {id, code, at ms, window ms[, retention ms, kept]}; a
-- window of 0 (or one that is already over) reserves nothing. A completed job that is retained passes its retention
-- and `kept`, the rest of its `ended` value ('|<length>\n<result><record>'): one entry then serves both, the
-- reservation and the retained job, until the later of the two ends, and goes to `completed` by that end rather than
-- into the order. One RPUSH, one HSET and, with retention, one ZADD for the lot.
local function reserve(ended, now)
  local order, outcomes, newest, retained = {}, {}, 0, {}
  -- The jobs of an ack batch share their outcome and its time: their value is formatted once.
  local code, at, value
  for _, e in ipairs(ended) do
    local keep = e[4]
    if e[6] and e[5] > keep then keep = e[5] end
    if keep > 0 and e[3] + keep > now then
      if e[2] ~= code or e[3] ~= at then
        code, at = e[2], e[3]
        value = code .. int(at)
      end
      outcomes[#outcomes + 1] = e[1]
      if e[6] then
        -- Its end is its score in `completed`, so the value needs no keep of its own.
        retained[#retained + 1] = int(e[3] + keep)
        retained[#retained + 1] = e[1]
        outcomes[#outcomes + 1] = value .. e[6]
      elseif keep == DEFAULT_WINDOW_MS then
        order[#order + 1] = e[1]
        outcomes[#outcomes + 1] = value
      else
        order[#order + 1] = e[1]
        outcomes[#outcomes + 1] = value .. '+' .. int(keep)
      end
      if not e[6] and now + keep > newest then newest = now + keep end
    end
  end
  -- A call that reserves nothing (windows off) trims nothing either: the calls that add entries, and schedules,
  -- remove them, and a window that is off costs nothing per ack batch.
  if #outcomes > 0 then
    if #order > 0 then redis.call('RPUSH', ENDED_ORDER, unpack(order)) end
    if #retained > 0 then redis.call('ZADD', COMPLETED, unpack(retained)) end
    redis.call('HSET', ENDED, unpack(outcomes))
    -- With only retained jobs added, nothing in the order is newer than they are: nothing moves to its tail.
    if #order == 0 then newest = math.huge end
    trim_ended(now, #outcomes / 2 + TRIM_EXTRA, newest)
    if #retained > 0 then trim_completed(now, #outcomes / 2 + TRIM_EXTRA) end
  end
end

local ENDED_NAMES = { A = 'ACKED', C = 'CANCELLED', D = 'DEAD' }

-- How the job that last had `id` ended, if its id is still reserved at `now`: the outcome's name and its time
-- (ms); else nil. `value` is the id's field of `ended` (false when none).
local function reservation(id, value, now)
  if not value then return nil end
  local ends, at = lookup_end(id, value)
  if string.find(value, '|', 1, true) then ends = tonumber(redis.call('ZSCORE', COMPLETED, id) or '') or 0 end
  if ends > now then return ENDED_NAMES[string.sub(value, 1, 1)], at end
  return nil
end

-- The completion events of a batch of acked jobs (ids `gone`, records `raws`, receipts `receipts`), read before
-- the records go.
local function history_acked(gone, raws, receipts, now)
  local errors = redis.call('HMGET', ERRORS, unpack(gone))
  for k, id in ipairs(gone) do
    local raw = raws[k]
    if raw then
      -- The header, and where the payload starts; a bare record's header is the due time its receipt carries.
      local header, start
      if is_bare(raw) then
        header, start = int(due_of_receipt(receipts[k]) or now), 1
      else
        local nl = string.find(raw, '\n', 1, true)
        header, start = string.sub(raw, 1, nl - 1), nl + 1
      end
      if string.find(header, '|', 1, true) then
        local j = decode_job(raw)
        history_event(id, 'ACKED', j, j.failed + 1, now, errors[k])
      else
        -- Most acked jobs: every field at its default, so the header is the due time alone, written as it is; an ack
        -- batch pays for this per job, and decode_job's split of the header is the larger part of an event's cost.
        local size, payload = #raw - start + 1, nil
        if EVENT_PAYLOAD_LIMIT > 0 and size <= EVENT_PAYLOAD_LIMIT then payload = string.sub(raw, start) end
        add_event('A', id, '1', DEFAULT_MAX_ATTEMPTS_TEXT, header, int(size), errors[k] or nil, nil, payload, now)
      end
    end
  end
end

-- The completed job retained under `id` at `now`: its completion time (ms), its record as stored when it was acked
-- and its result (nil for none); or nil when none is retained (never acked with retention on, or its entry expired).
local function retained_job(id, now)
  local value = redis.call('HGET', ENDED, id)
  if not value or string.sub(value, 1, 1) ~= 'A' then return nil end
  local at, length, rest = string.match(value, '^A(%d+)[^|\n]*|(%d*)\n()')
  if not at then return nil end
  local ends = tonumber(redis.call('ZSCORE', COMPLETED, id) or '')
  if not ends or ends <= now then return nil end
  if length == '' then return tonumber(at), string.sub(value, rest), nil end
  local n = tonumber(length)
  return tonumber(at), string.sub(value, rest + n), string.sub(value, rest, rest + n - 1)
end

-- Bounded dead letters. Each shard keeps at most `max_count` dead letters (0: no limit), none older than
-- `max_age` ms (0: no limit); the oldest go first. No sweeper: a script that adds d dead letters trims up to
-- d + TRIM_EXTRA of them, and an idle claim IDLE_TRIM, so a shard's dead letters fall back within the limits at
-- least as fast as they come. A trimmed dead letter is gone as if deleted (its id reserved for the rest of its
-- idempotency window, counted from its time of death) and counted in the history's 'd' field (a total, not per
-- minute). Returns how many were trimmed.
local function trim_dead(now, max_count, max_age, budget)
  local doomed = {}
  if max_age > 0 then
    doomed = redis.call('ZRANGEBYSCORE', DEAD, '-inf', '(' .. int(now - max_age), 'WITHSCORES', 'LIMIT', 0, int(budget))
  end
  -- The ids above are the oldest, ranks 0 to #doomed / 2 - 1; the excess over the count comes right after them.
  local taken = #doomed / 2
  if max_count > 0 and taken < budget then
    local excess = redis.call('ZCARD', DEAD) - taken - max_count
    if excess > 0 then
      local last = taken + math.min(excess, budget - taken) - 1
      local more = redis.call('ZRANGE', DEAD, int(taken), int(last), 'WITHSCORES')
      for _, v in ipairs(more) do doomed[#doomed + 1] = v end
    end
  end
  if #doomed == 0 then return 0 end
  local ids = {}
  for i = 1, #doomed, 2 do ids[#ids + 1] = doomed[i] end
  local raws = redis.call('HMGET', JOBS, unpack(ids))
  -- This is the one place where trimmed dead letters leave Redis: their records are in `raws`, their errors in
  -- ERRORS, their times of death in `doomed`; with history on, each is offered to the archive as TRIMMED.
  if EVENTS_CAP > 0 then
    local errors = redis.call('HMGET', ERRORS, unpack(ids))
    for k, id in ipairs(ids) do
      if raws[k] then
        local j = decode_job(raws[k])
        history_event(id, 'TRIMMED', j, j.failed, now, errors[k])
      end
    end
  end
  local ended = {}
  for k, id in ipairs(ids) do
    if raws[k] then ended[#ended + 1] = { id, 'D', tonumber(doomed[2 * k]), window_of_record(raws[k]) } end
  end
  reserve(ended, now)
  redis.call('ZREM', DEAD, unpack(ids))
  redis.call('HDEL', JOBS, unpack(ids))
  redis.call('HDEL', ERRORS, unpack(ids))
  redis.call('HINCRBY', HISTORY, 'd', #ids)
  return #ids
end

-- Acks the deliveries whose ids and receipts are ARGV[first], ARGV[first + 1], ... to the end: each ACTIVE job whose
-- receipt is current is gone, record, lease and last error deleted. A receipt argument may go on with a newline and
-- the job's result bytes, kept only when the job is retained. With `retention` > 0 (ms) each acked job stays
-- readable as COMPLETED for that long, its record and result kept in its `ended` entry (reserve). Returns one
-- outcome per pair, in order: 'OK', 'STALE' (not this delivery's receipt) or 'MISSING' (no such job). The batch
-- costs a handful of commands whatever its size (HMGET, ZREM, HDEL), because a command call, not the work in it, is
-- what a script mostly pays for; only refused acks cost one more each, to tell STALE from MISSING.
-- Also returns how many were acked, for the history. `lane`, when given, is the lane the deliveries most likely came
-- from (a claim's own): its `active` set is cleared first, and the other lane's only when that did not hold them all.
local function ack_all(first, now, retention, lane)
  local ids, outcomes = {}, {}
  for i = first, #ARGV, 2 do ids[#ids + 1] = ARGV[i] end
  if #ids == 0 then return outcomes, 0 end
  local receipts = redis.call('HMGET', LEASES, unpack(ids))
  local gone, seen, results, windows, held, unread = {}, {}, {}, {}, {}, false
  for k, id in ipairs(ids) do
    local receipt = ARGV[first + 2 * k - 1]
    local nl = string.find(receipt, '\n', 1, true)
    local result
    if nl then
      result = string.sub(receipt, nl + 1)
      receipt = string.sub(receipt, 1, nl - 1)
    end
    if receipt ~= '' and receipts[k] == receipt and not seen[id] then
      seen[id] = true
      outcomes[k] = 'OK'
      gone[#gone + 1] = id
      results[#gone] = result
      held[#gone] = receipt
      windows[#gone] = window_of_receipt(receipt)
      unread = unread or not windows[#gone]
    elseif not seen[id] and redis.call('HEXISTS', JOBS, id) == 1 then
      outcomes[k] = 'STALE'
    else
      outcomes[k] = 'MISSING'
    end
  end
  if #gone > 0 then
    -- The records are read only when they are kept (retention), described (history) or hold the window.
    local raws = {}
    if retention > 0 or EVENTS_CAP > 0 or unread then raws = redis.call('HMGET', JOBS, unpack(gone)) end
    local ended = {}
    now = now or now_ms()
    for k, id in ipairs(gone) do
      local window = windows[k] or (raws[k] and window_of_record(raws[k]))
      -- A lease without a record breaks invariant 6; such an id is acked without a reservation when that shows.
      if window then
        local kept
        if retention > 0 and raws[k] then
          local result = results[k]
          local length = ''
          if result then length = int(#result) end
          kept = '|' .. length .. '\n' .. (result or '') .. with_header(raws[k], due_of_receipt(held[k]) or now)
        end
        ended[#ended + 1] = { id, 'A', now, window, retention, kept }
      end
    end
    if EVENTS_CAP > 0 then history_acked(gone, raws, held, now) end
    reserve(ended, now)
    -- The lease says the job is ACTIVE but not in which lane; removing an id its lane's set does not hold is a no-op.
    local cleared = lane and redis.call('ZREM', lane.active, unpack(gone)) or 0
    if cleared < #gone then
      for _, other in ipairs(LANES) do
        if other ~= lane then redis.call('ZREM', other.active, unpack(gone)) end
      end
    end
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

-- Moves a job's due time for a retry, a run-now or a requeue: the due time its producer gave it stays its first.
local function move_due(j, due)
  if not j.first then j.first = j.due end
  j.due = due
end

-- Epoch ms as ISO-8601 UTC with milliseconds (civil_from_days, Howard Hinnant's algorithm).
local function iso(ms)
  local secs = math.floor(ms / 1000)
  local z = math.floor(secs / 86400) + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  local sod = secs % 86400
  return string.format('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ', y, m, d, math.floor(sod / 3600),
      math.floor(sod / 60) % 60, sod % 60, ms % 1000)
end

-- Whether bytes are UTF-8 as far as a JSON string needs: every byte from 128 up is in a sequence of a lead byte and
-- as many continuation bytes as it announces (overlong forms and surrogates are not looked for).
local function is_utf8(s)
  if not string.find(s, '[\128-\255]') then return true end
  local ok = true
  for seq in string.gmatch(s, '[\128-\255][\128-\191]*') do
    local lead, n = string.byte(seq, 1), 0
    if lead >= 194 and lead <= 223 then n = 2 elseif lead >= 224 and lead <= 239 then n = 3
    elseif lead >= 240 and lead <= 244 then n = 4 end
    if #seq ~= n then
      ok = false
      break
    end
  end
  return ok
end

local BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

local function base64(s)
  local out = {}
  for i = 1, #s, 3 do
    local a, b, c = string.byte(s, i, i + 2)
    local n = a * 65536 + (b or 0) * 256 + (c or 0)
    local q = { math.floor(n / 262144), math.floor(n / 4096) % 64, math.floor(n / 64) % 64, n % 64 }
    local chunk = ''
    for k = 1, 4 do chunk = chunk .. string.sub(BASE64, q[k] + 1, q[k] + 1) end
    if not b then chunk = string.sub(chunk, 1, 2) .. '==' elseif not c then chunk = string.sub(chunk, 1, 3) .. '=' end
    out[#out + 1] = chunk
  end
  return table.concat(out)
end

-- Failure notices. A job that names a failure URL and goes to the dead letters gets, in the same script run, a notice
-- job: id '<job id>:failure' (job ids cannot end so, and StorageFormat.shardOf puts it in its job's shard), due now,
-- in the callback lane, POSTed to the failure URL by callback delivery with its signature, retries and checks, so the
-- notice is at-least-once whatever happens to the process that ended the job. Its payload is the JSON failure body;
-- a notice still waiting is replaced by the newer death's. Notices have no failure URL and no idempotency window.
local FAILURE_SUFFIX = ':failure'

local function notify_failure(id, j, now, reason)
  if not j.failure or j.failure == '' then return end
  -- The topic's name is the wake channel's tail: read here, on a death with a failure URL, not on every call.
  local topic = string.match(WAKE_CHANNEL, ':wake:(.*)$')
  local body = { event = 'dead', topic = topic, id = id, reason = reason, attempts = j.failed, maxAttempts = j.max,
                 lastError = redis.call('HGET', ERRORS, id) or cjson.null, dueAt = iso(j.first or j.due),
                 attemptDueAt = iso(j.due), diedAt = iso(now) }
  if is_utf8(j.payload) then body.payload = j.payload else body.payloadBase64 = base64(j.payload) end
  local notice_id = id .. FAILURE_SUFFIX
  local notice = { due = now, failed = 0, max = DEFAULT_MAX_ATTEMPTS, lease = DEFAULT_LEASE_MS, backoff = '',
                   callback = j.failure, window = 0, payload = cjson.encode(body) }
  local old = load_job(notice_id)
  if old then
    local state, key = locate(notice_id, old, now)
    if key then redis.call('ZREM', key, notice_id) end
    if state == 'ACTIVE' then redis.call('HDEL', LEASES, notice_id) end
    redis.call('HDEL', ERRORS, notice_id)
  end
  save_job(notice_id, notice)
  place(notice_id, notice, now)
end

-- Expiry. A job past its expiresAt is never leased: a claim that meets one among the due jobs moves it to the dead
-- letters with the error EXPIRED (or deletes it, when its record says 'drop', its id then reserved for its window as a
-- deleted dead letter) and takes the next due job in its place. Each is counted in the history as failed, and in the
-- history's 'expired' field (jobs expired since the topic began).
local EXPIRED = 'expired'
-- Most expired jobs after which a claim reads no further due jobs: a backlog of expired jobs is worked off over
-- several claims, each short.
local EXPIRE_LIMIT = 1000
-- A record's expiresAt, its ninth header field, in one match a claim pays per job: no copy of the header, and a header
-- with fewer fields (every job without an expiry whose later fields are empty) fails at its newline.
local EXPIRES_AT = '^[^|\n]*|[^|\n]*|[^|\n]*|[^|\n]*|[^|\n]*|[^|\n]*|[^|\n]*|[^|\n]*|(%d+)'

-- Expires a job taken out of `waiting`; appends id and error to `dead` when it went to the dead letters.
local function expire(id, raw, now, dead)
  local j = decode_job(raw)
  history_event(id, 'EXPIRED', j, j.failed, now, EXPIRED)
  if j.on_expiry == 'drop' then
    reserve({ { id, 'D', now, j.window } }, now)
    redis.call('HDEL', JOBS, id)
    redis.call('HDEL', ERRORS, id)
    return
  end
  redis.call('HSET', ERRORS, id, EXPIRED)
  redis.call('ZADD', DEAD, int(now), id)
  dead[#dead + 1] = id
  dead[#dead + 1] = EXPIRED
  notify_failure(id, j, now, EXPIRED)
end

-- Takes up to `max` due jobs of `lane` for a claim, earliest due first, out of `waiting` (or, given `key`, `lo` and
-- `hi`, out of the scores [lo, hi] of that set: one band of `prio`): returns their ids, their
-- records (false for an id without one), whether more due jobs are left, the jobs that expired on the way (id,
-- error pairs: the dead-lettered ones) and, out of the worker lane's `waiting`, the jobs' scores as Redis printed
-- them (their due times, which a bare record has nowhere else; nil out of any other set, which holds no bare
-- record). The first read is the claim's usual max + 1 ids; only when it meets expired
-- jobs does it read on, at least EXPIRE_PEEK ids at a time, until it has found max live jobs and one more, or the due
-- jobs end, or EXPIRE_LIMIT jobs expired (more due jobs are then reported, so the worker claims again).
local EXPIRE_PEEK = 64

local function take_due(lane, now, max, key, lo, hi)
  local ids, raws, dead, dues = {}, {}, {}, {}
  local more, expired, peek = false, 0, max + 1
  key = key or lane.waiting
  local scored = key == LANES[1].waiting
  while true do
    local batch, scores = nil, {}
    if scored then
      local read = redis.call('ZRANGEBYSCORE', key, lo or '-inf', hi or int(now), 'WITHSCORES', 'LIMIT', 0, peek)
      batch = {}
      for i = 2, #read, 2 do
        batch[i / 2] = read[i - 1]
        scores[i / 2] = read[i]
      end
    else
      batch = redis.call('ZRANGEBYSCORE', key, lo or '-inf', hi or int(now), 'LIMIT', 0, peek)
    end
    if #batch == 0 then break end
    local records = redis.call('HMGET', JOBS, unpack(batch))
    local taken = {}
    for k, id in ipairs(batch) do
      local raw = records[k]
      -- (A bare record never expires, and its payload may hold anything.)
      local expires = raw and not is_bare(raw) and string.match(raw, EXPIRES_AT)
      if expires and tonumber(expires) <= now then
        expire(id, raw, now, dead)
        expired = expired + 1
      elseif #ids < max then
        ids[#ids + 1] = id
        raws[#ids] = raw
        dues[#ids] = scores[k]
      else
        more = true
        break
      end
      taken[#taken + 1] = id
    end
    if #taken > 0 then redis.call('ZREM', key, unpack(taken)) end
    if more or #batch < peek then break end
    if expired >= EXPIRE_LIMIT then
      more = true
      break
    end
    peek = math.max(max - #ids, EXPIRE_PEEK - 1) + 1
  end
  if expired > 0 then
    count_history(now, 0, expired)
    redis.call('HINCRBY', HISTORY, EXPIRED, expired)
  end
  return ids, raws, more, dead, dues
end

-- take_due over both sets of a lane in priority order: the due jobs of the bands of `prio` above the default, then
-- those of `waiting`, then those of the bands below, each set earliest due first. A band is looked up only when the
-- claim still has room (or must tell whether more jobs are ready), so a claim reads only the bands it takes from;
-- a lane without prioritised jobs pays one EXISTS over take_due, or none when the caller knows `prio` is absent
-- (`no_prio`).
local function take_due_by_priority(lane, now, max, no_prio)
  if no_prio or redis.call('EXISTS', lane.prio) == 0 then return take_due(lane, now, max) end
  local ids, raws, dead, dues, more = {}, {}, {}, {}, false
  local function take(key, lo, hi)
    local got, records, left, died, scores = take_due(lane, now, max - #ids, key, lo, hi)
    for k, id in ipairs(got) do
      ids[#ids + 1] = id
      raws[#ids] = records[k]
      dues[#ids] = scores[k]
    end
    for _, v in ipairs(died) do dead[#dead + 1] = v end
    more = left
  end
  local from, waited = 0, false
  while not more do
    local head = redis.call('ZRANGEBYSCORE', lane.prio, int(from * BAND), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    local band = head[2] and math.floor(tonumber(head[2]) / BAND)
    if not waited and (not band or band > DEFAULT_BAND) then
      take(lane.waiting)
      waited = true
    end
    if not band or more then break end
    take(lane.prio, int(band * BAND), int(band * BAND + now))
    from = band + 1
  end
  return ids, raws, more, dead, dues
end
