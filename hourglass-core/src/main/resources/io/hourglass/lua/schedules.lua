-- schedules: the namespace's recurring schedules (Schedules, ScheduleTicker). Not a per-shard script: its three KEYS
-- share the namespace's hash tag {ns}, so it runs on one Redis Cluster slot:
--   1 hg:{ns}:schedules          HASH   name -> '<updatedAt ms>|' followed by the definition the client wrote
--   2 hg:{ns}:schedules:fired    HASH   name -> the latest tick (epoch ms) whose job was created
--   3 hg:{ns}:schedules:version  STRING changed by every put and delete, so tickers re-read the definitions only then
-- ARGV[1] the channel a change is published on (the wake channel '.schedules', a name no topic can have; message
-- '1:0:<now ms>'), ARGV[2] unused. ARGV[3] the operation, its arguments from ARGV[4]:
--   put <name> <definition>  -> {updatedAt ms, 1 if created else 0, its latest fired tick or nil}; the same
--                               definition as stored changes nothing
--   delete <name>            -> {1 if it existed, else 0}; its latest tick goes with it
--   read <known version>     -> {now ms, version, {name, tick, ...}, {name, stored definition, ...}, or 0 when the
--                               version is still the known one}
--   fired <name> <tick ms>   -> {1 if recorded as the latest tick, 0 if the schedule is gone or a later one is}
-- The common fragment is included for now_ms and int; its per-shard locals go unused.
-- @include common.lua

local DEFINITIONS, FIRED, VERSION = KEYS[1], KEYS[2], KEYS[3]
local op = ARGV[3]

-- A version is '<ms>-<n>', n counting the changes: the time keeps it from repeating when the keys were lost (FLUSHALL,
-- a restart without persistence) and counting starts again, and a ticker that knew the old one would miss a change.
local function changed(now)
  local previous = redis.call('GET', VERSION)
  local n = previous and tonumber(string.match(previous, '%-(%d+)$')) or 0
  redis.call('SET', VERSION, int(now) .. '-' .. int(n + 1))
  redis.call('PUBLISH', WAKE_CHANNEL, '1:0:' .. int(now))
end

if op == 'put' then
  local stored = redis.call('HGET', DEFINITIONS, ARGV[4])
  if stored then
    local bar = string.find(stored, '|', 1, true)
    if string.sub(stored, bar + 1) == ARGV[5] then
      -- The same definition again (every instance of an application puts its schedules at start-up): no change.
      return { tonumber(string.sub(stored, 1, bar - 1)), 0, redis.call('HGET', FIRED, ARGV[4]) }
    end
  end
  local now = now_ms()
  local created = redis.call('HSET', DEFINITIONS, ARGV[4], int(now) .. '|' .. ARGV[5])
  changed(now)
  return { now, created, redis.call('HGET', FIRED, ARGV[4]) }
elseif op == 'delete' then
  local removed = redis.call('HDEL', DEFINITIONS, ARGV[4])
  redis.call('HDEL', FIRED, ARGV[4])
  if removed == 1 then changed(now_ms()) end
  return { removed }
elseif op == 'read' then
  local version = redis.call('GET', VERSION) or '0'
  local definitions = 0
  if version ~= ARGV[4] then definitions = redis.call('HGETALL', DEFINITIONS) end
  return { now_ms(), version, redis.call('HGETALL', FIRED), definitions }
elseif op == 'fired' then
  if redis.call('HEXISTS', DEFINITIONS, ARGV[4]) == 0 then return { 0 } end
  local latest = redis.call('HGET', FIRED, ARGV[4])
  if latest and tonumber(latest) >= tonumber(ARGV[5]) then return { 0 } end
  redis.call('HSET', FIRED, ARGV[4], ARGV[5])
  return { 1 }
end
return redis.error_reply('ERR schedules.lua: unknown operation ' .. tostring(op))
