-- purge: deletes a bounded chunk of this shard's jobs in one state: SCHEDULED, READY, ACTIVE or DEAD -> gone, with
-- their records and last errors. An ACTIVE job's lease goes too, so a later ack, nack or extend with its receipt is
-- refused (the job is missing), as after cancel.lua.
-- ARGV[3] state, [4] chunk size (per lane, and per priority band of a lane's `prio`). Returns {how many were deleted, 1 if a lane gave a full chunk (more may
-- be left) else 0}.
-- @include common.lua

local state, limit = ARGV[3], tonumber(ARGV[4])
local now = now_ms()
local removed, full = {}, 0
local function take(key, ids)
  if #ids == 0 then return end
  if #ids >= limit then full = 1 end
  redis.call('ZREM', key, unpack(ids))
  for _, id in ipairs(ids) do removed[#removed + 1] = id end
end
if state == 'DEAD' then
  take(DEAD, redis.call('ZRANGE', DEAD, 0, limit - 1))
else
  for _, lane in ipairs(LANES) do
    if state == 'ACTIVE' then
      take(lane.active, redis.call('ZRANGE', lane.active, 0, limit - 1))
    elseif state == 'READY' then
      take(lane.waiting, redis.call('ZRANGEBYSCORE', lane.waiting, '-inf', int(now), 'LIMIT', 0, limit))
    else
      take(lane.waiting, redis.call('ZRANGEBYSCORE', lane.waiting, '(' .. int(now), '+inf', 'LIMIT', 0, limit))
    end
    if state == 'READY' or state == 'SCHEDULED' then
      -- The prioritised jobs, a chunk per band in use.
      for _, band in ipairs(bands_in_use(lane.prio, 0, LAST_BAND)) do
        local base = band * BAND
        local lo, hi = int(base), int(base + now)
        if state == 'SCHEDULED' then lo, hi = '(' .. int(base + now), '(' .. int(base + BAND) end
        take(lane.prio, redis.call('ZRANGEBYSCORE', lane.prio, lo, hi, 'LIMIT', 0, limit))
      end
    end
  end
end
if #removed > 0 then
  redis.call('HDEL', JOBS, unpack(removed))
  redis.call('HDEL', ERRORS, unpack(removed))
  if state == 'ACTIVE' then redis.call('HDEL', LEASES, unpack(removed)) end
end
return { #removed, full }
