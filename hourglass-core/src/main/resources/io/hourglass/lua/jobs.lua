-- jobs (read only): one page of this shard's jobs in one state, both lanes merged, ordered by (score, id): due time
-- for SCHEDULED and READY, lease deadline for ACTIVE, time of death for DEAD, end of retention for COMPLETED (the
-- retained completed jobs of `completed`, read from their `ended` entries; completion order for jobs retained
-- equally long). A page starts after a cursor (the last job of the previous page) found by rank, so it costs
-- O(log N + count) at any backlog, never a scan; the client merges the shards' pages the same way. A band of a lane's
-- `prio` set is read as a set of its own, its scores less the band's base, so prioritised jobs list by due time among
-- the others.
-- ARGV[3] state, [4] cursor score ('' = from the first job), [5] cursor id, [6] count, [7] preview bytes.
-- Returns {more (1 if a lane may hold more jobs after this page, else 0), id1, score1, record header1, payload
-- size1, payload preview1, last error1 ('' for none), id2, ...}; for COMPLETED each job goes on with its completion
-- time ms, so seven fields a job.
-- @include common.lua

local state, after_score, after_id = ARGV[3], tonumber(ARGV[4]), ARGV[5]
local count, preview = tonumber(ARGV[6]), tonumber(ARGV[7])
local now = now_ms()
-- Scores within [lo, hi] belong to the state. Each set is {key, base, true for a band of `prio`, true for a `waiting`
-- set}: its scores less `base` are the listed ones, and a `waiting` set's are its jobs' due times.
local sets, lo, hi = {}, -math.huge, math.huge
if state == 'DEAD' then
  sets = { { DEAD, 0, false, false } }
elseif state == 'COMPLETED' then
  -- Entries whose retention ended are left out by score, whether or not a call has trimmed them yet.
  sets, lo = { { COMPLETED, 0, false, false } }, now + 1
else
  for _, lane in ipairs(LANES) do
    if state == 'ACTIVE' then
      sets[#sets + 1] = { lane.active, 0, false, false }
    else
      sets[#sets + 1] = { lane.waiting, 0, false, true }
      for _, band in ipairs(bands_in_use(lane.prio, 0, LAST_BAND)) do
        sets[#sets + 1] = { lane.prio, band * BAND, true, false }
      end
    end
  end
  if state == 'READY' then hi = now elseif state == 'SCHEDULED' then lo = now + 1 end
end

-- The rank of the first entry of `key` that this page may show: the first past the cursor, and at least lo.
local function start_rank(key, base)
  if not after_score or after_score < lo then
    if lo == -math.huge then
      if base == 0 then return 0 end
      return redis.call('ZCOUNT', key, '-inf', '(' .. int(base))
    end
    return redis.call('ZCOUNT', key, '-inf', '(' .. int(base + lo))
  end
  local own = redis.call('ZSCORE', key, after_id)
  if own and tonumber(own) == base + after_score then return redis.call('ZRANK', key, after_id) + 1 end
  -- The cursor's job has left this set (or was never in it): find by bisection the first entry of the cursor's
  -- score with a greater id among those tied on it, which Redis keeps in bytewise order.
  local a = redis.call('ZCOUNT', key, '-inf', '(' .. int(base + after_score))
  local b = a + redis.call('ZCOUNT', key, int(base + after_score), int(base + after_score))
  while a < b do
    local mid = math.floor((a + b) / 2)
    if id_after(redis.call('ZRANGE', key, mid, mid)[1], after_id) then b = mid else a = mid + 1 end
  end
  return a
end

local entries, more = {}, 0
for _, set in ipairs(sets) do
  local key, base = set[1], set[2]
  local first = start_rank(key, base)
  local got = redis.call('ZRANGE', key, first, first + count - 1, 'WITHSCORES')
  local taken = 0
  for i = 1, #got, 2 do
    local score = tonumber(got[i + 1]) - base
    -- A band's set ends where the next band begins.
    if score > hi or (set[3] and score >= BAND) then break end
    entries[#entries + 1] = { id = got[i], score = score, due = set[4] and score or nil }
    taken = taken + 1
  end
  if taken == count then more = 1 end
end
table.sort(entries, function(x, y)
  if x.score ~= y.score then return x.score < y.score end
  return id_after(y.id, x.id)
end)
while #entries > count do
  entries[#entries] = nil
  more = 1
end

local out = { more }
if #entries == 0 then return out end
local ids = {}
for k, e in ipairs(entries) do ids[k] = e.id end
if state == 'COMPLETED' then
  local values = redis.call('HMGET', ENDED, unpack(ids))
  for k, e in ipairs(entries) do
    -- The record follows the result in the entry (retained_job); an entry without one is left out, as below.
    local at, length, rest = string.match(values[k] or '', '^A(%d+)|(%d*)\n()')
    if at then
      local raw = string.sub(values[k], rest + (tonumber(length) or 0))
      local nl = string.find(raw, '\n', 1, true)
      for _, v in ipairs({ e.id, e.score, string.sub(raw, 1, nl - 1), #raw - nl, string.sub(raw, nl + 1, nl + preview),
                           '', tonumber(at) }) do
        out[#out + 1] = v
      end
    end
  end
  return out
end
local raws = redis.call('HMGET', JOBS, unpack(ids))
local errors = redis.call('HMGET', ERRORS, unpack(ids))
for k, e in ipairs(entries) do
  local raw = raws[k]
  -- An entry without a record breaks invariant 6; it is left out of the page rather than fail it.
  if raw then
    -- (A bare record waits in the worker lane's `waiting`, whose score is its due time, or is ACTIVE.)
    if is_bare(raw) then raw = with_header(raw, e.due or bare_due(e.id)) end
    local nl = string.find(raw, '\n', 1, true)
    out[#out + 1] = e.id
    out[#out + 1] = e.score
    out[#out + 1] = string.sub(raw, 1, nl - 1)
    out[#out + 1] = #raw - nl
    out[#out + 1] = string.sub(raw, nl + 1, nl + preview)
    out[#out + 1] = errors[k] or ''
  end
end
return out
