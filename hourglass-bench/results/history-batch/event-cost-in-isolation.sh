#!/bin/bash
# Redis-side cost of the completion events of acked jobs, in isolation, per job: batches of B acked jobs (30-byte
# payloads, default headers) whose events are written
#   ONE_PER_JOB  as before: a field list and one XADD MAXLEN ~ per job (history_event of the earlier version)
#   ONE_PER_CALL as now: each event encoded into one string (add_event), one XADD MAXLEN ~ per batch (history_flush)
#   NONE         the same loop without events
# each run N jobs inside one EVAL, alternating, five rounds per batch size. Measured as the Redis server's CPU time
# (INFO cpu, used_cpu_user + used_cpu_sys) across each EVAL, which a loaded machine lengthens less than wall time;
# printed in ns per job.
P=${PORT:-6398}
N=${N:-200000}
redis-server --port $P --save "" --appendonly no --daemonize yes >/dev/null
sleep 0.5
COMMON='local function int(n) return string.format("%d", n) end
local n, b, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local raw = int(now) .. "\n" .. string.rep("x", 30)
'
ONE_PER_JOB="$COMMON"'for i = 1, n, b do
  local ids = {}
  for k = 1, b do ids[k] = "job-" .. (i + k) end
  local errors = redis.call("HMGET", KEYS[2], unpack(ids))
  for k, id in ipairs(ids) do
    local nl = string.find(raw, "\n", 1, true)
    local header = string.sub(raw, 1, nl - 1)
    if not string.find(header, "|", 1, true) then
      local j = { due = tonumber(header), failed = 0, max = 10, payload = string.sub(raw, nl + 1) }
      local fields = { "id", id, "outcome", "ACKED", "attempts", int(j.failed + 1), "due", int(j.due), "at", int(now),
                       "maxAttempts", int(j.max), "payloadBytes", int(#j.payload) }
      if errors[k] then fields[#fields + 1] = "error"; fields[#fields + 1] = errors[k] end
      redis.call("XADD", KEYS[1], "MAXLEN", "~", int(100000), "*", unpack(fields))
    end
  end
end
return n'
ONE_PER_CALL="$COMMON"'for i = 1, n, b do
  local ids = {}
  for k = 1, b do ids[k] = "job-" .. (i + k) end
  local errors = redis.call("HMGET", KEYS[2], unpack(ids))
  local batch, count = {}, 0
  for k, id in ipairs(ids) do
    local nl = string.find(raw, "\n", 1, true)
    local header = string.sub(raw, 1, nl - 1)
    if not string.find(header, "|", 1, true) then
      local err, err_length = errors[k] or nil, ""
      if err then err_length = int(#err) else err = "" end
      count = count + 1
      batch[count] = "A" .. "1" .. "|" .. "10" .. "|" .. header .. "|" .. int(#raw - nl) .. "|" .. int(#id) .. "|"
          .. err_length .. "|" .. "" .. "|" .. "" .. "\n" .. id .. err .. "" .. ""
    end
  end
  redis.call("XADD", KEYS[1], "MAXLEN", "~", int(100000), "*", "at", int(now), "count", int(count), "events",
      table.concat(batch, "", 1, count))
end
return n'
NONE="$COMMON"'for i = 1, n, b do
  local ids = {}
  for k = 1, b do ids[k] = "job-" .. (i + k) end
  local shard = "0"
  if string.find(shard, "/", 1, true) then return -1 end
end
return n'
# In µs, printed as a float: awk's %d stops at 2^31.
cpu() { redis-cli -p $P INFO cpu | awk -F: '/used_cpu_(user|sys):/ {s += $2} END {printf "%.0f", s * 1e6}'; }
for B in ${BATCHES:-1 6 64 256}; do
  for r in 1 2 3 4 5; do
    line="batch $B round $r:"
    for v in ONE_PER_JOB ONE_PER_CALL NONE; do
      redis-cli -p $P DEL events errors >/dev/null
      before=$(cpu); redis-cli -p $P EVAL "${!v}" 2 events errors $N $B 1764130000000 >/dev/null; after=$(cpu)
      line="$line $v $(( (after - before) * 1000 / N )) ns/job;"
    done
    echo "$line"
  done
done
redis-cli -p $P shutdown nosave >/dev/null 2>&1
