#!/usr/bin/env bash
# Packs what the planned runs on a bare x86-64 benchmark machine (no Java, no redis-server, no network; what travels
# with the checkout is limited to 64 MiB) need into .dev/ of this checkout, then device-runs.sh runs them there:
#   .dev/bundle.tar.xz  a jlinked Java runtime and the bench jar unpacked (class files compress far better unpacked),
#                       with only the linux-amd64 embedded Redis left in it and no embedded PostgreSQL;
#   .dev/run.sh         unpacks the bundle to /tmp/hg once, cds there and runs its java with the given arguments;
#   .dev/redis7.tar.xz  this machine's redis-server with its libraries and loader (pack-redis.sh);
#   .dev/old-core.jar   with COMMIT: hourglass-core built at that commit, which device-runs.sh puts ahead of the bench
#                       on the class path (worker JVMs inherit it) for an A/B of the core's code.
#
#   hourglass-bench/scripts/device-bundle.sh [COMMIT]
set -euo pipefail
[ $# -le 1 ] || { echo "usage: $0 [COMMIT]" >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
cd "$root"
grep -qx '/.dev/' .git/info/exclude 2>/dev/null || echo '/.dev/' >> .git/info/exclude
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf .dev && mkdir -p .dev

./mvnw -q -B -ntp -pl hourglass-bench -am -DskipTests -Djacoco.skip=true package
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
"$jdk/bin/jlink" --add-modules java.se,jdk.unsupported,jdk.management,jdk.crypto.ec,jdk.zipfs,jdk.net,jdk.httpserver \
  --strip-debug --no-man-pages --no-header-files --output "$work/jre"
mkdir -p "$work/app/hourglass-bench"
(cd "$work/app/hourglass-bench" && unzip -q "$root/hourglass-bench/target/hourglass-bench.jar")
# Only the linux-amd64 embedded Redis is of use there, and no embedded PostgreSQL (76 MB for four platforms; only the
# tier workload, not in device-runs.sh, starts one).
find "$work/app/hourglass-bench" -maxdepth 1 \( -name 'redis-server-*' ! -name '*linux-amd64' -o -name 'postgres-*.txz' \) \
  -delete
tar -C "$work" -cJf .dev/bundle.tar.xz jre app
cat > .dev/run.sh <<'RUN'
#!/usr/bin/env bash
set -e
here=$(cd "$(dirname "$0")" && pwd)
[ -x /tmp/hg/jre/bin/java ] || { mkdir -p /tmp/hg && tar -C /tmp/hg -xJf "$here/bundle.tar.xz"; }
cd /tmp/hg && exec /tmp/hg/jre/bin/java "$@"
RUN
chmod +x .dev/run.sh

hourglass-bench/scripts/pack-redis.sh .dev/redis7.tar.xz

if [ $# -eq 1 ]; then
  git worktree add -f --detach "$work/old" "$1" >/dev/null
  (cd "$work/old" && ./mvnw -q -B -ntp -pl hourglass-core -am package -DskipTests -Djacoco.skip=true \
    -Dmaven.javadoc.skip=true)
  cp "$work/old"/hourglass-core/target/hourglass-core-*[0-9T].jar .dev/old-core.jar
  git worktree remove --force "$work/old"
fi
du -ch .dev/* | tail -1   # with the checkout, must stay under 64 MiB
