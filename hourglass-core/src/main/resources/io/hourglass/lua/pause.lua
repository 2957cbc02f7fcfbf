-- pause: sets or clears this shard's paused flag. While it is set, claim.lua leases nothing (acks and reaping go
-- on), so workers, callback dispatchers and pull reservations of every process stop taking the topic's jobs;
-- scheduling is unaffected. Kept in Redis, so a pause outlives every process. A resume wakes both lanes at once.
-- ARGV[3] '1' to pause, '0' to resume. Returns {1 if the flag changed, else 0}.
-- @include common.lua

if ARGV[3] == '1' then
  return { redis.call('SET', PAUSED, '1', 'NX') and 1 or 0 }
end
local changed = redis.call('DEL', PAUSED)
if changed == 1 then
  local now = now_ms()
  for lane_index = 1, #LANES do wake(lane_index, now) end
end
return { changed }
