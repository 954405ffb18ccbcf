#!/usr/bin/env bash
# Observer effect of the probe's default collectors, measured with an independent client.
# pgbench runs the hashbytes query on 2 connections (as many as CPUs) against a throw-away server, alternately
# alone and while `probe capture --attach` collects with its default settings (perf at the default rate, /proc,
# the session sampler on pg_stat_activity with pg_wait_sampling, pg_stat_database, pg_stat_statements). Rounds run in the order off,on,on,off,... so a steady
# drift of the machine cancels out. Prints each window's tps, then on/off with a 95 % interval over the rounds.
# Usage: bench/observer-effect.sh [rounds] [seconds per window] [extra probe options...]
#        PGSS=off bench/observer-effect.sh ...   the same without pg_stat_statements on the server
#        MODE=watch bench/observer-effect.sh ... `probe watch` on pgbench's sessions (a trigger that does not fire)
#                                                instead of an attach capture
set -euo pipefail
rounds=${1:-6}
seconds=${2:-8}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
source "$(dirname "$0")/lib/pg-server.sh"
source "$(dirname "$0")/lib/hashbytes-load.sh"

results=()
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then order=(off on); else order=(on off); fi
  for mode in "${order[@]}"; do
    if [ "$mode" = off ]; then tps=$(window)
    elif [ "${MODE:-attach}" = watch ]; then tps=$(watched "$r")
    else tps=$(attached "$r"); fi
    printf 'round %d %-3s %s tps\n' "$r" "$mode" "$tps"
    results+=("$r $mode $tps")
  done
done

printf '%s\n' "${results[@]}" | python3 -c '
import sys, statistics as st, math
rows = [l.split() for l in sys.stdin if l.strip()]
off = {int(r): float(t) for r, m, t in rows if m == "off"}
on = {int(r): float(t) for r, m, t in rows if m == "on"}
ratios = [on[r] / off[r] for r in sorted(on)]
mean = st.mean(ratios)
t95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179}.get(len(ratios) - 1, 2.1)
half = t95 * st.stdev(ratios) / math.sqrt(len(ratios)) if len(ratios) > 1 else float("nan")
print("cpus=%d rounds=%d seconds=%s" % (int(sys.argv[1]), len(ratios), sys.argv[2]))
print("mean tps off %.2f, on %.2f" % (st.mean(off.values()), st.mean(on.values())))
print("on/off per round: " + " ".join("%.3f" % x for x in ratios))
print("on/off = %.3f (95%% interval %.3f-%.3f)" % (mean, mean - half, mean + half))
' "$clients" "$seconds"
