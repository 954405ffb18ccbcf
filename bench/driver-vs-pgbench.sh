#!/usr/bin/env bash
# Driver throughput against PostgreSQL's own benchmark client on one throw-away server:
#   pgbench -n -c 8 -j 2 -T 10 -f select1.sql   vs   probe capture --workload noop --threads 8 --duration 10s --cpu none --no-baseline
# Both connect over the same Unix socket. Usage: bench/driver-vs-pgbench.sh [clients] [seconds]
set -euo pipefail
clients=${1:-8}
seconds=${2:-10}
source "$(dirname "$0")/lib/pg-server.sh"

echo "SELECT 1;" > "$work/select1.sql"
chmod a+r "$work/select1.sql"
pg_tps=$(bench_pgbench -n -c "$clients" -j 2 -T "$seconds" -f "$work/select1.sql" | awk '/^tps = /{print $3}')

probe_out=$("${probe[@]}" capture --server "$conn" \
  --workload noop --threads "$clients" --duration "${seconds}s" --cpu none --no-baseline --no-analyze -o "$work/bundle" 2>/dev/null)
probe_tps=$(echo "$probe_out" | awk '$1=="load"{print $5}')

echo "cpus=$(nproc) clients=$clients seconds=$seconds"
echo "pgbench select1: $pg_tps tps"
echo "probe noop:      $probe_tps executions/s"
python3 -c "print('probe/pgbench = %.3f' % ($probe_tps/$pg_tps))"
