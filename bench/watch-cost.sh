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

# The probe's private runtime folder (where perf writes its segments) is one of the bench's own, so the disk figure
# counts them beside the output folder and the end can check that nothing was left there.
runtime=$(mktemp -d /tmp/probe-bench-runtime-XXXXXX)
trap 'bench_cleanup; rm -rf "$runtime"' EXIT
echo "started $(date -u '+%Y-%m-%d %H:%M:%S') UTC; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
before=$(server_ticks)
out="$work/watch"
SQLWAITPROBE_RUNTIME_DIR="$runtime/probe" /usr/bin/time -f "%U %S" -o "$work/time" "${probe[@]}" watch --engine postgres --server "$conn" --application watched \
  --keep "$keep" --after 5s --trigger 'wait:Lock>90%' -o "$out" "${extra[@]}" >"$work/watch.out" 2>"$work/watch.err" &
pid=$!
peak=0
peak_perf=0
peak_all=0
end=$((SECONDS + seconds))
# Bytes the probe and its children (perf) wrote, from each one's /proc/PID/io write_bytes (what it sent to the
# storage layer, files deleted later included), read every 2 s and kept per process: perf restarts with each server
# loss and a reading lost between its last poll and its end is at most 2 s of writing.
declare -A wrote
tree() { local p=$1 c; echo "$p"; for c in $(pgrep -P "$p"); do tree "$c"; done; }
while (( SECONDS < end )); do
  sleep 2
  for p in $(tree "$pid"); do
    w=$(awk '/^write_bytes/ {print $2}' "/proc/$p/io" 2>/dev/null || true)
    [ -n "$w" ] && (( w > ${wrote[$p]:-0} )) && wrote[$p]=$w
  done
  size=$(du -sk "$out" 2>/dev/null | awk '{print $1}')
  segments=$(du -sk "$runtime" 2>/dev/null | awk '{print $1}')
  (( ${size:-0} > peak )) && peak=$size
  (( ${segments:-0} > peak_perf )) && peak_perf=$segments
  (( ${size:-0} + ${segments:-0} > peak_all )) && peak_all=$(( ${size:-0} + ${segments:-0} ))
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
written=0
for p in "${!wrote[@]}"; do written=$(( written + wrote[$p] )); done
echo "ended $(date -u '+%Y-%m-%d %H:%M:%S') UTC; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$seconds" "$user" "$sys" "$(( after - before ))" "$hz" "$peak" "$(nproc)" "$(ls "$out" | grep -c '^dump-' || true)" "$peak_perf" "$peak_all" "$written" <<'PY'
import sys
seconds, user, sys_, ticks, hz, peak_kb, cpus, dumps = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
perf_kb, all_kb, written = int(sys.argv[9]), int(sys.argv[10]), int(sys.argv[11])
probe = user + sys_
server = ticks / hz
per_hour = 3600 / seconds
print("watched %.0f s idle on %d CPUs; dumps written: %d (expected 0)" % (seconds, cpus, dumps))
print("probe CPU (its own and perf): %.1f CPU s = %.0f CPU s per hour = %.2f%% of one CPU, %.2f%% of the machine" % (probe, probe * per_hour, 100 * probe / seconds, 100 * probe / seconds / cpus))
print("server CPU for the watch's connections: %.1f CPU s = %.0f CPU s per hour = %.2f%% of one CPU" % (server, server * per_hour, 100 * server / seconds))
print("disk: at most %.1f MB held (output folder at most %.1f MB, perf's segments in the runtime folder at most %.1f MB)" % (all_kb / 1024, peak_kb / 1024, perf_kb / 1024))
print("disk written by the probe and its children: %.0f MB = %.0f MB per hour" % (written / 1e6, written / 1e6 * per_hour))
PY
test -z "$(ls -A "$out" | grep -v -e '^probe.log$')" || { echo "left in the output folder:"; ls -A "$out"; }
test -z "$(ls -A "$runtime/probe" 2>/dev/null | grep -v '^probe-error-')" || { echo "left in the runtime folder:"; ls -AR "$runtime/probe"; }
