#!/bin/bash
# Redis-side cost of one completion event, in isolation: what history_event (common.lua) does for an acked job (an
# HGET of the job's last error, which misses, the field list, and XADD MAXLEN ~ 100000) run N times inside one EVAL,
# against the same loop without the two commands. A run of each, alternating, five times; ms per 1M calls = ns per call.
P=${PORT:-6398}
N=${N:-1000000}
redis-server --port $P --save "" --appendonly no --daemonize yes >/dev/null
sleep 0.5
WITH='local function int(n) return string.format("%d", n) end
local n = tonumber(ARGV[1]); local now = tonumber(ARGV[2]); local payload = string.rep("x", 30)
for i = 1, n do
  local id = "job-" .. i
  local err = redis.call("HGET", KEYS[2], id)
  local fields = { "id", id, "outcome", "ACKED", "attempts", int(1), "due", int(now), "at", int(now + 3),
                   "maxAttempts", int(10), "payloadBytes", int(#payload) }
  if err then fields[#fields + 1] = "error"; fields[#fields + 1] = err end
  redis.call("XADD", KEYS[1], "MAXLEN", "~", int(100000), "*", unpack(fields))
end
return n'
WITHOUT='local function int(n) return string.format("%d", n) end
local n = tonumber(ARGV[1]); local now = tonumber(ARGV[2]); local payload = string.rep("x", 30)
for i = 1, n do
  local id = "job-" .. i
  local shard = "0"
  if string.find(shard, "/", 1, true) then return -1 end
end
return n'
for r in 1 2 3 4 5; do
  for v in WITH WITHOUT; do
    redis-cli -p $P DEL events errors >/dev/null
    s=$(date +%s%N); redis-cli -p $P EVAL "${!v}" 2 events errors $N 1764130000000 >/dev/null; e=$(date +%s%N)
    echo "$v round $r: $(( (e-s)/1000000 )) ms per $N calls"
  done
done
redis-cli -p $P shutdown nosave >/dev/null 2>&1
