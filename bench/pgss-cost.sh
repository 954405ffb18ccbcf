#!/usr/bin/env bash
# What pg_stat_statements itself costs the server (the probe's statement counters need it loaded; the embedded server
# loads it): pgbench's built-in select-only script (-S, one short statement per transaction, where a per-statement
# hook costs most) on as many connections as CPUs, against one throw-away server restarted with and without
# pg_stat_statements in shared_preload_libraries. Rounds run in the order off,on,on,off,... so a steady drift of the
# machine cancels out. Prints each window's tps, then on/off with a 95 % interval over the rounds. No probe runs.
# Usage: bench/pgss-cost.sh [rounds] [seconds per window]
set -euo pipefail
rounds=${1:-6}
seconds=${2:-8}
source "$(dirname "$0")/lib/pg-server.sh"
libdir=$("$bin/pg_config" --pkglibdir)
[ -f "$libdir/pg_stat_statements.so" ] || { echo "pg_stat_statements is not installed in $libdir" >&2; exit 1; }
cp "$work/data/postgresql.conf" "$work/postgresql.conf.base"
clients=$(nproc)
bench_pgbench -i -q -s 1 >/dev/null 2>&1

server() {   # restart the server with pg_stat_statements loaded (on) or not (off)
  cp "$work/postgresql.conf.base" "$work/data/postgresql.conf"
  [ "$1" = on ] && echo "shared_preload_libraries = 'pg_stat_statements'" >> "$work/data/postgresql.conf"
  "${run_as[@]}" "$bin/pg_ctl" restart -w -D "$work/data" -l "$work/server.log" >/dev/null
  [ "$1" = on ] && bench_psql -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
  bench_pgbench -n -S -c "$clients" -j "$clients" -T 2 >/dev/null   # warm-up after the restart
}

results=()
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then order=(off on); else order=(on off); fi
  for mode in "${order[@]}"; do
    server "$mode"
    tps=$(bench_pgbench -n -S -c "$clients" -j "$clients" -T "$seconds" | awk '/^tps = /{print $3}')
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
print("cpus=%d rounds=%d seconds=%s (pgbench -S)" % (int(sys.argv[1]), len(ratios), sys.argv[2]))
print("mean tps off %.0f, on %.0f" % (st.mean(off.values()), st.mean(on.values())))
print("on/off per round: " + " ".join("%.3f" % x for x in ratios))
print("on/off = %.3f (95%% interval %.3f-%.3f)" % (mean, mean - half, mean + half))
' "$clients" "$seconds"
