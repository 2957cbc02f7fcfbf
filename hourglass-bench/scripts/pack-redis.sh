#!/usr/bin/env bash
# Packs this machine's redis-server (e.g. Debian 12's Redis 7) with the shared libraries it links and the dynamic
# loader into one tarball, for a bare benchmark machine of the same architecture that has no redis-server, or only the
# bench jar's embedded Redis 6.2, on which the scripts run by EVALSHA rather than as functions.
#
#   hourglass-bench/scripts/pack-redis.sh /tmp/redis7.tar.xz
#
# On the other machine:
#   mkdir -p /tmp/redis7 && tar -C /tmp/redis7 -xJf redis7.tar.xz && export PATH=/tmp/redis7/bin:$PATH
# The bench (and the test kit) then start that redis-server. Its own loader and libraries travel with it, so the
# other machine's C library does not matter.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUTPUT.tar.xz" >&2; exit 2; }
server=$(readlink -f "$(command -v redis-server)")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib" "$work/bin"
# The binary keeps the name redis-server: Redis picks its mode from argv[0] (Debian ships it as redis-check-rdb).
cp "$server" "$work/lib/redis-server"
ldd "$server" | awk '/=> \//{print $3}' | xargs -I{} cp -L {} "$work/lib/"
loader=$(ldd "$server" | awk '/ld-linux/{print $1}')
cp -L "$loader" "$work/lib/"
cat > "$work/bin/redis-server" <<WRAPPER
#!/bin/sh
# redis-server with the libraries and loader it was packed with ($(redis-server --version | cut -d' ' -f1-3)).
d="\${0%/*}/../lib"
exec "\$d/$(basename "$loader")" --library-path "\$d" "\$d/redis-server" "\$@"
WRAPPER
chmod 755 "$work/bin/redis-server"
"$work/bin/redis-server" --version
tar -C "$work" -cJf "$1" bin lib
du -h "$1"
