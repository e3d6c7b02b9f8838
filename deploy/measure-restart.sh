#!/usr/bin/env bash
# measure-restart.sh: how long payline serve takes to answer /readyz and
# how much memory it holds, with a directory of N employers, for one or
# more binaries alternated round by round (the machine is shared and
# noisy: compare binaries in the same run). docs/benchmarks.md, "Restart
# with a large directory".
#
#   deploy/measure-restart.sh [-n EMPLOYERS] [-r ROUNDS] [-d DATABASE_URL] BIN...
#
# Each round starts each binary on the same database (SQLite in a
# temporary directory unless -d names a PostgreSQL database, which is
# reset), waits for /readyz, waits 3 s more, and prints the seconds to
# ready, the peak resident memory (VmHWM) and the resident memory then
# (VmRSS), in MB.
set -euo pipefail
employers=50000 rounds=6 dburl=""
while getopts "n:r:d:" o; do
    case $o in
    n) employers=$OPTARG ;;
    r) rounds=$OPTARG ;;
    d) dburl=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-n EMPLOYERS] [-r ROUNDS] [-d DATABASE_URL] BIN..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PAYLINE_MASTER_KEY
PAYLINE_MASTER_KEY=$(head -c 32 /dev/urandom | base64)
if [ -z "$dburl" ]; then
    dburl="sqlite:$work/payline.db"
else
    psql "$dburl" -qc 'DROP SCHEMA public CASCADE; CREATE SCHEMA public;' >/dev/null
fi
"$1" directory seed --employers "$employers" --database-url "$dburl" >/dev/null
port=$((20000 + RANDOM % 20000))
for round in $(seq 1 "$rounds"); do
    for bin in "$@"; do
        "$bin" serve --database-url "$dburl" --addr "127.0.0.1:$port" --mode development --trust-proxy >"$work/log" 2>&1 &
        pid=$!
        t0=$(date +%s.%N)
        until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do
            kill -0 "$pid" 2>/dev/null || { cat "$work/log" >&2; exit 1; }
            sleep 0.02
        done
        t1=$(date +%s.%N)
        sleep 3
        hwm=$(awk '/^VmHWM/ {print int($2/1024)}' "/proc/$pid/status")
        rss=$(awk '/^VmRSS/ {print int($2/1024)}' "/proc/$pid/status")
        kill "$pid"
        wait "$pid" 2>/dev/null || true
        printf 'round=%d bin=%s employers=%d ready_s=%.3f peak_mb=%d rss_mb=%d\n' "$round" "$(basename "$bin")" "$employers" "$(echo "$t1 - $t0" | bc)" "$hwm" "$rss"
    done
done
