#!/usr/bin/env bash
# Cost of `probe watch` while idle-watching: a throw-away PostgreSQL with one idle client session of the watched
# application, watched for a while with a trigger that does not fire. Measures the CPU the probe used (its own and
# the perf it ran, from /usr/bin/time), the CPU the server spent on the watch's connections (the postmaster's reaped
# children before and after, every probe connection having closed by then) and the most disk the ring held (du every
# 2 s). Prints each figure and its rate per hour. Run it several times; figures on a shared machine vary.
# Usage: [ACTIVE=1] bench/watch-cost.sh [seconds] [keep] [extra probe options...]
set -euo pipefail
seconds=${1:-180}
keep=${2:-30s}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
source "$(dirname "$0")/lib/pg-server.sh"

# The postmaster's children's CPU in clock ticks (cutime + cstime): every backend that exited is counted there.
server_ticks() {
  local pm
  pm=$(head -1 "$work/data/postmaster.pid")
  awk '{print $16 + $17}' "/proc/$pm/stat"
}

# One idle session of the watched application, as a connection pool would hold: psql connected and waiting for its
# input, so the backend is idle (a session in pg_sleep would be active and keep the samplers at their fast interval).
# ACTIVE=1 holds it in pg_sleep instead, the cost of watching a session that is always in a statement.
if [ "${ACTIVE:-0}" = 1 ]; then
  "${run_as[@]}" env PGAPPNAME=watched "$bin/psql" -X -q -h "$work" -p "$port" -U postgres -d postgres -c "SELECT pg_sleep($seconds + 30)" >/dev/null 2>&1 &
else
  mkfifo "$work/idle.in"
  "${run_as[@]}" env PGAPPNAME=watched "$bin/psql" -X -q -h "$work" -p "$port" -U postgres -d postgres <"$work/idle.in" >/dev/null 2>&1 &
  exec 7>"$work/idle.in"   # held open until the end: psql waits for a statement that never comes
fi
idle=$!
sleep 1

before=$(server_ticks)
out="$work/watch"
/usr/bin/time -f "%U %S" -o "$work/time" "${probe[@]}" watch --engine postgres --server "$conn" --application watched \
  --keep "$keep" --after 5s --trigger 'wait:Lock>90%' -o "$out" "${extra[@]}" >"$work/watch.out" 2>"$work/watch.err" &
pid=$!
peak=0
end=$((SECONDS + seconds))
while (( SECONDS < end )); do
  sleep 2
  size=$(du -sk "$out" 2>/dev/null | awk '{print $1}')
  (( ${size:-0} > peak )) && peak=$size
done
# /usr/bin/time is the child of this shell; the probe is its child: SIGTERM the probe, as a service manager would.
kill -TERM "$(pgrep -P "$pid" | head -1)"
wait "$pid" || true
sleep 1
after=$(server_ticks)
exec 7>&- 2>/dev/null || true
kill "$idle" 2>/dev/null || true

hz=$(getconf CLK_TCK)
read -r user sys < <(tail -1 "$work/time")
python3 - "$seconds" "$user" "$sys" "$(( after - before ))" "$hz" "$peak" "$(nproc)" "$(ls "$out" | grep -c '^dump-' || true)" <<'PY'
import sys
seconds, user, sys_, ticks, hz, peak_kb, cpus, dumps = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
probe = user + sys_
server = ticks / hz
per_hour = 3600 / seconds
print("watched %.0f s idle on %d CPUs; dumps written: %d (expected 0)" % (seconds, cpus, dumps))
print("probe CPU (its own and perf): %.1f CPU s = %.0f CPU s per hour = %.2f%% of one CPU, %.2f%% of the machine" % (probe, probe * per_hour, 100 * probe / seconds, 100 * probe / seconds / cpus))
print("server CPU for the watch's connections: %.1f CPU s = %.0f CPU s per hour = %.2f%% of one CPU" % (server, server * per_hour, 100 * server / seconds))
print("disk: at most %.1f MB in the output folder (the ring), none left after the stop" % (peak_kb / 1024))
PY
test -z "$(ls -A "$out" | grep -v -e '^probe.log$')" || { echo "left in the output folder:"; ls -A "$out"; }
