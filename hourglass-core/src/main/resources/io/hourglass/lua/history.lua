-- history (read only): this shard's jobs processed (acked) and failed (nacked or lease expired) per minute, for the
-- minutes of the last 24 hours by the server's clock that have a count. The hash holds at most 1440 minutes per
-- counter (common.lua, count_history), so reading it whole is bounded.
-- Returns {minute1, processed1, failed1, minute2, ...} in no particular order; a minute is ms since the epoch / 60000.
-- @include common.lua

local oldest = math.floor(now_ms() / 60000) - HISTORY_MINUTES + 1
local counts, minutes = {}, {}
local fields = redis.call('HGETALL', HISTORY)
for i = 1, #fields, 2 do
  local kind, minute = string.match(fields[i], '^([pf]):(%d+)$')
  minute = tonumber(minute)
  if minute and minute >= oldest then
    local c = counts[minute]
    if not c then
      c = { 0, 0 }
      counts[minute] = c
      minutes[#minutes + 1] = minute
    end
    if kind == 'p' then c[1] = tonumber(fields[i + 1]) else c[2] = tonumber(fields[i + 1]) end
  end
end
local out = {}
for _, minute in ipairs(minutes) do
  out[#out + 1] = minute
  out[#out + 1] = counts[minute][1]
  out[#out + 1] = counts[minute][2]
end
return out
