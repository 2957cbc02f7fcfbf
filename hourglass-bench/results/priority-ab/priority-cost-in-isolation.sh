#!/bin/bash
# What a claim of a lane without prioritised jobs pays for priorities: one EXISTS of the lane's absent `prio` key.
# Runs it 1M times inside one EVAL against the same loop without it, on a fresh redis-server; prints the seconds of
# each and Redis's own time per EXISTS (INFO commandstats).
set -e
port=${1:-36999}
dir=$(mktemp -d)
redis-server --port "$port" --save '' --appendonly no --daemonize yes --pidfile "$dir/r.pid" --dir "$dir" >/dev/null
sleep 0.5
key='hg:{b:t:0}:w:prio'
for round in 1 2 3; do
  with=$( { /usr/bin/time -f %e redis-cli -p "$port" eval \
    "for i = 1, 1000000 do redis.call('EXISTS', KEYS[1]) end return 0" 1 "$key" >/dev/null; } 2>&1 )
  without=$( { /usr/bin/time -f %e redis-cli -p "$port" eval \
    "for i = 1, 1000000 do local k = KEYS[1] end return 0" 1 "$key" >/dev/null; } 2>&1 )
  echo "round $round: with EXISTS ${with} s, without ${without} s (per 1M)"
done
redis-cli -p "$port" info commandstats | grep '^cmdstat_exists'
kill "$(cat "$dir/r.pid")"
rm -rf "$dir"
