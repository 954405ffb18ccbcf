#!/usr/bin/env bash
# Driver throughput against PostgreSQL's own benchmark client on one throw-away server:
#   pgbench -n -c 8 -j 2 -T 10 -f select1.sql   vs   probe capture --workload noop --threads 8 --duration 10s --cpu none --no-baseline
# Both connect over the same Unix socket, alternately, ROUNDS times (default 3); medians are compared.
# Usage: [ROUNDS=n] bench/driver-vs-pgbench.sh [clients] [seconds]
set -euo pipefail
clients=${1:-8}
seconds=${2:-10}
source "$(dirname "$0")/lib/pg-server.sh"

echo "SELECT 1;" > "$work/select1.sql"
chmod a+r "$work/select1.sql"
rounds=${ROUNDS:-3}
pg_all=(); probe_all=()
for r in $(seq 1 "$rounds"); do
  # Alternate which client goes first so a drifting machine favours neither.
  for who in $( (( r % 2 )) && echo "pgbench probe" || echo "probe pgbench"); do
    if [ "$who" = pgbench ]; then
      tps=$(bench_pgbench -n -c "$clients" -j 2 -T "$seconds" -f "$work/select1.sql" | awk '/^tps = /{print $3}')
      pg_all+=("$tps")
    else
      rm -rf "$work/bundle"
      tps=$("${probe[@]}" capture --server "$conn" --workload noop --threads "$clients" --duration "${seconds}s" \
        --cpu none --no-baseline --no-analyze -o "$work/bundle" 2>/dev/null | awk '$1=="load"{print $5}')
      probe_all+=("$tps")
    fi
    printf 'round %d %-8s %s per second\n' "$r" "$who" "$tps"
  done
done

python3 - "$(nproc)" "$clients" "$seconds" "${pg_all[*]}" "${probe_all[*]}" <<'PY'
import sys, statistics as st
cpus, clients, seconds, pg, probe = sys.argv[1:6]
pg = [float(x) for x in pg.split()]; probe = [float(x) for x in probe.split()]
print(f"cpus={cpus} clients={clients} seconds={seconds} rounds={len(pg)}")
print(f"pgbench select1: median {st.median(pg):.0f} tps (range {min(pg):.0f}-{max(pg):.0f})")
print(f"probe noop:      median {st.median(probe):.0f} executions/s (range {min(probe):.0f}-{max(probe):.0f})")
print(f"probe/pgbench = {st.median(probe) / st.median(pg):.3f} (medians)")
PY
