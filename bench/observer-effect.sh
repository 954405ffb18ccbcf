#!/usr/bin/env bash
# Observer effect of the probe's default collectors, measured with an independent client.
# pgbench runs the hashbytes query on 2 connections (as many as CPUs) against a throw-away server, alternately
# alone and while `probe capture --attach` collects with its default settings (perf at the default rate, /proc,
# pg_stat_activity / pg_wait_sampling, pg_stat_database). Rounds run in the order off,on,on,off,... so a steady
# drift of the machine cancels out. Prints each window's tps, then on/off with a 95 % interval over the rounds.
# Usage: bench/observer-effect.sh [rounds] [seconds per window] [extra probe options...]
set -euo pipefail
rounds=${1:-6}
seconds=${2:-8}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
source "$(dirname "$0")/lib/pg-server.sh"

# As the embedded server does: pg_wait_sampling preloaded when it is installed, so waits come from it.
if [ -f "$("$bin/pg_config" --pkglibdir 2>/dev/null || echo /none)/pg_wait_sampling.so" ]; then
  echo "shared_preload_libraries = 'pg_wait_sampling'" >> "$work/data/postgresql.conf"
  "${run_as[@]}" "$bin/pg_ctl" restart -w -D "$work/data" -l "$work/server.log" >/dev/null
  bench_psql -c "CREATE EXTENSION pg_wait_sampling"
fi

rows=${ROWS:-40000}
echo "preparing a $rows-row table..." >&2
bench_psql -c "CREATE EXTENSION IF NOT EXISTS pgcrypto" \
  -c "CREATE TABLE hb AS SELECT 'row-' || g::text AS id FROM generate_series(1, $rows) AS g" \
  -c "VACUUM (FREEZE, ANALYZE) hb"
echo "SELECT sum(get_byte(digest(id, 'sha256'), 0)) FROM hb;" > "$work/hb.sql"
chmod a+r "$work/hb.sql"
clients=$(nproc)
bench_pgbench -n -c "$clients" -j "$clients" -T 3 -f "$work/hb.sql" >/dev/null   # warm-up

window() { bench_pgbench -n -c "$clients" -j "$clients" -T "$seconds" -f "$work/hb.sql" | awk '/^tps = /{print $3}'; }
attached() {
  # The probe needs about 2-3 s to connect and start its collectors; the window starts after that and ends
  # before the probe stops (its stop and perf script conversion then run on an idle machine).
  "${probe[@]}" capture --engine postgres --server "$conn" --attach --duration "$((seconds + 6))s" --no-analyze \
    -o "$work/bundle-$1" "${extra[@]}" >"$work/probe-$1.log" 2>&1 &
  local pid=$!
  sleep 4
  window
  wait "$pid" || { echo "probe failed, see its output:" >&2; cat "$work/probe-$1.log" >&2; exit 1; }
}

results=()
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then order=(off on); else order=(on off); fi
  for mode in "${order[@]}"; do
    if [ "$mode" = on ]; then tps=$(attached "$r"); else tps=$(window); fi
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
