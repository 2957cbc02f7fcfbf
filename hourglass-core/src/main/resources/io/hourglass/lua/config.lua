-- config: reads or sets the topic's flow control on this shard (the `flow` hash, see flow.lua). Every shard of the
-- topic holds the topic-wide settings and works out its own share; the client sets every shard alike.
-- ARGV[3] 'get', or 'set' with [4] rate per second (0: no rate limit), [5] burst (tokens), [6] concurrency cap
-- (0: none), [7] the namespace's shard count.
-- Returns for 'get' {rate, burst, cap} as stored ('' when off); for 'set' {1}, after waking both lanes, so that
-- workers waiting for a token under the old rate claim under the new one at once.
-- A new rate limit starts with a full bucket; a changed one keeps the tokens it had, up to its new size.
-- @include common.lua
-- @include flow.lua

if ARGV[3] == 'get' then
  local f = redis.call('HMGET', FLOW, 'rate', 'burst', 'cap')
  return { f[1] or '', f[2] or '', f[3] or '' }
end
local rate, burst, cap, shards = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local now = now_ms()
if rate > 0 then
  local r, b = rate / shards / 1000, burst / shards
  local old = redis.call('HMGET', FLOW, 'r', 'b', 'tokens', 'at')
  local tokens = b
  if old[1] then
    tokens = math.min(b, refill(tonumber(old[1]), tonumber(old[2]), tonumber(old[3]), tonumber(old[4]), now))
  end
  redis.call('HSET', FLOW, 'rate', ARGV[4], 'burst', ARGV[5], 'r', real(r), 'b', real(b), 'tokens', real(tokens),
      'at', int(now))
else
  redis.call('HDEL', FLOW, 'rate', 'burst', 'r', 'b', 'tokens', 'at')
end
if cap > 0 then
  local m = math.floor(cap / shards)
  if tonumber(SHARD) < cap % shards then m = m + 1 end
  redis.call('HSET', FLOW, 'cap', ARGV[6], 'm', int(m))
else
  redis.call('HDEL', FLOW, 'cap', 'm')
end
for lane_index = 1, #LANES do wake(lane_index, now) end
return { 1 }
