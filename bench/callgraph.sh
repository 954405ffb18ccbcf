#!/usr/bin/env bash
# Cost of perf's call-graph modes, measured in one sitting so the modes share the machine's state.
# 1. Observer effect: pgbench runs the hashbytes query on as many connections as CPUs against a throw-away server;
#    windows alternate between pgbench alone ("off") and pgbench while `probe capture --attach --call-graph MODE`
#    collects, for every mode of MODES (default "fp dwarf"), in an order that rotates each round so steady drift
#    cancels. Prints each window's tps, then per mode on/off with a 95 % interval over the rounds, and dwarf/fp.
# 2. Size and conversion time for a 60 s capture (RECORD_SECONDS): perf record -a at the probe's rate with each
#    mode while pgbench saturates the CPUs, then perf script as the probe runs it (--no-inline) and, for comparison,
#    with inline expansion (perf's default). Set RECORD_SECONDS=0 to skip.
# Usage: bench/callgraph.sh [rounds] [seconds per window] [extra probe options...]
set -euo pipefail
rounds=${1:-6}
seconds=${2:-10}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
read -r -a modes <<< "${MODES:-fp dwarf}"
record_seconds=${RECORD_SECONDS:-60}
source "$(dirname "$0")/lib/pg-server.sh"
source "$(dirname "$0")/lib/hashbytes-load.sh"

results=()
all=(off "${modes[@]}")
for r in $(seq 1 "$rounds"); do
  n=${#all[@]}
  for i in $(seq 0 $((n - 1))); do
    mode=${all[$(( (i + r - 1) % n ))]}
    if [ "$mode" = off ]; then tps=$(window); else tps=$(attached "$mode-$r" --call-graph "$mode"); fi
    printf 'round %d %-5s %s tps\n' "$r" "$mode" "$tps"
    results+=("$r $mode $tps")
  done
done

printf '%s\n' "${results[@]}" | python3 -c '
import sys, statistics as st, math
rows = [l.split() for l in sys.stdin if l.strip()]
by = {}
for r, m, t in rows:
    by.setdefault(m, {})[int(r)] = float(t)
def interval(xs):
    mean = st.mean(xs)
    t95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179}.get(len(xs) - 1, 2.1)
    half = t95 * st.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return "%.3f (95%% interval %.3f-%.3f)" % (mean, mean - half, mean + half)
print("cpus=%s rounds=%d seconds=%s" % (sys.argv[1], len(by["off"]), sys.argv[2]))
for m in sys.argv[3:]:
    ratios = [by[m][r] / by["off"][r] for r in sorted(by[m])]
    print("%s/off per round: %s" % (m, " ".join("%.3f" % x for x in ratios)))
    print("%s/off = %s; mean tps off %.2f, %s %.2f" % (m, interval(ratios), st.mean(by["off"].values()), m, st.mean(by[m].values())))
if "fp" in by and "dwarf" in by:
    print("dwarf/fp = " + interval([by["dwarf"][r] / by["fp"][r] for r in sorted(by["dwarf"])]))
' "$clients" "$seconds" "${modes[@]}"

if [ "$record_seconds" -gt 0 ]; then
  echo "perf record -a for ${record_seconds} s per mode while pgbench saturates the CPUs:"
  for mode in "${modes[@]}"; do
    case "$mode" in dwarf) cg="dwarf,8192" ;; *) cg="$mode" ;; esac
    data="$work/cg-$mode.data"
    bench_pgbench -n -c "$clients" -j "$clients" -T "$((record_seconds + 2))" -f "$work/hb.sql" >/dev/null &
    load=$!
    sleep 1
    perf record -q -a -e cpu-clock --call-graph "$cg" -F 499 -o "$data" -- sleep "$record_seconds" 2>/dev/null
    wait "$load"
    size=$(stat -c %s "$data")
    for inline in --no-inline --inline; do
      start=$(date +%s.%N)
      perf script "$inline" -i "$data" 2>/dev/null | gzip -1 > "$work/cg-$mode.txt.gz"
      end=$(date +%s.%N)
      printf '%-5s perf data %.1f MB, perf script %s %.1f s, gzip %.2f MB\n' "$mode" "$(echo "$size / 1000000" | bc -l)" \
        "$inline" "$(echo "$end - $start" | bc -l)" "$(echo "$(stat -c %s "$work/cg-$mode.txt.gz") / 1000000" | bc -l)"
    done
    rm -f "$data" "$work/cg-$mode.txt.gz"
  done
fi
