#!/usr/bin/env bash
# On the benchmark machine, from the checkout root, with .dev/ made by device-bundle.sh: the planned runs, the most
# wanted first, each under a time limit of its own so that a slow one cannot eat the others' time, every result tarred
# into one file under $OUT (a machine that sends back only a few files gets them all), written again after each step.
#   1. the claim rule on several masters, the core at an older commit (.dev/old-core.jar, when bundled) against this
#      checkout's: one worker JVM of 128 slots draining a 200k burst from 3 and 6 masters, warmed up first;
#   2. end to end against Redisson on one Redis 7: Redis's time per job in the script calls and in the commands;
#   3. the same on the bench jar's embedded Redis 6.2, built with its own Lua and allocator: whether a machine's
#      slowness in the scripts belongs to the machine or to the Redis build;
#   4. a warm fleet: 1, 3 and 6 masters drained by 1, 2 and 4 worker JVMs, each layout after an untimed burst.
# Steps 1 to 3 may take up to 540 s between them (their limits) and step 4 up to 420 s, so where one command may run
# for 10 minutes at most they go in two:
#   OUT=/some/dir bash hourglass-bench/scripts/device-runs.sh 123
#   OUT=/some/dir bash hourglass-bench/scripts/device-runs.sh 4
# SMOKE=1 shrinks the scale-out runs, to try the script itself on a small machine.
set -uo pipefail
out=${OUT:?OUT must name the folder to leave the results in}
steps=${1:-1234}
root=$(pwd)
results=/tmp/device-results
rm -rf "$results" && mkdir -p "$results" /tmp/redis7
tar -C /tmp/redis7 -xJf .dev/redis7.tar.xz && export PATH=/tmp/redis7/bin:$PATH
bash .dev/run.sh -version 2> "$results/java.txt"   # unpacks the bundle to /tmp/hg on the first call
{
  echo "nproc: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo
  grep MemTotal /proc/meminfo
  redis-server --version
  date -u
} > "$results/machine.txt"

jobs=()
if [ "${SMOKE:-0}" = 1 ]; then jobs=(--scaleout-jobs 20000); fi
warm() { if [ "${SMOKE:-0}" = 1 ]; then echo 5000; else echo "$1"; fi; }

# bench SECONDS NAME CLASS_PATH ARGS...: one bench run, its console in NAME.log and its tables in NAME/results.md.
bench() {
  local limit=$1 name=$2 classpath=$3
  shift 3
  local started=$SECONDS
  timeout "$limit" bash .dev/run.sh -cp "$classpath" io.hourglass.bench.BenchCommand "$@" --out "$results/$name" \
    > "$results/$name.log" 2>&1
  echo "$name: exit $?, $((SECONDS - started)) s" | tee -a "$results/steps.txt"
  # After every step, so that a command stopped by its own limit still leaves the steps before.
  tar -C "$results" -czf "$out/results.tar.gz" .
}

if [[ $steps == *1* ]]; then
  claims=(--workloads scaleout --systems hourglass --rounds 1 --scaleout-masters 3,6 --scaleout-workers 1
    --scaleout-concurrency 128 --scaleout-warm-up-jobs "$(warm 100000)" ${jobs[@]+"${jobs[@]}"})
  if [ -f .dev/old-core.jar ]; then
    bench 120 claim-rule-old "$root/.dev/old-core.jar:app/hourglass-bench" "${claims[@]}"
  fi
  bench 120 claim-rule-new app/hourglass-bench "${claims[@]}"
fi
if [[ $steps == *2* ]]; then
  bench 150 e2e-redis7 app/hourglass-bench --workloads e2e --systems hourglass,redisson --rounds 1
fi
if [[ $steps == *3* ]]; then
  cp /tmp/hg/app/hourglass-bench/redis-server-*-linux-amd64 /tmp/redis62 && chmod 700 /tmp/redis62
  (export HOURGLASS_REDIS_SERVER=/tmp/redis62 && bench 150 e2e-redis62 app/hourglass-bench --workloads e2e \
    --systems hourglass,redisson --rounds 1)
fi
if [[ $steps == *4* ]]; then
  bench 420 warm-fleet app/hourglass-bench --workloads scaleout --systems hourglass --rounds 1 \
    --scaleout-masters 1,3,6 --scaleout-workers 1,2,4 --scaleout-warm-up-jobs "$(warm 100000)" ${jobs[@]+"${jobs[@]}"}
fi
ls -l "$out"
