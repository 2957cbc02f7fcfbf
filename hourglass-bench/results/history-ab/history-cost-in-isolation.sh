#!/bin/bash
# Redis-side cost of count_history's per-call work, in isolation: N calls inside one EVAL, with and without.
P=6399
redis-server --port $P --save "" --appendonly no --daemonize yes >/dev/null
sleep 0.5
WITH='local function int(n) return string.format("%d", n) end
local n = tonumber(ARGV[1]); local now = tonumber(ARGV[2]); local acc = 0
for i = 1, n do
  local minute = math.floor(now / 60000)
  local fresh = false
  if redis.call("HINCRBY", KEYS[1], "p:" .. int(minute), 6) == 6 then fresh = true end
  if fresh then acc = acc + 1 end
end
return acc'
WITHOUT='local function int(n) return string.format("%d", n) end
local n = tonumber(ARGV[1]); local now = tonumber(ARGV[2]); local acc = 0
for i = 1, n do
  local minute = math.floor(now / 60000)
  local fresh = false
  if fresh then acc = acc + 1 end
end
return acc'
for r in 1 2 3 4 5; do
  for v in WITH WITHOUT; do
    s=$(date +%s%N); redis-cli -p $P EVAL "${!v}" 1 h 1000000 1764130000000 >/dev/null; e=$(date +%s%N)
    echo "$v round $r: $(( (e-s)/1000000 )) ms per 1M calls"
  done
done
redis-cli -p $P shutdown nosave >/dev/null 2>&1
