#!/usr/bin/env bash
# Driver throughput against PostgreSQL's own benchmark client on one throw-away server:
#   pgbench -n -c 8 -j 2 -T 10 -f select1.sql   vs   probe capture --workload noop --threads 8 --duration 10s --cpu none --no-baseline
# Both connect over the same Unix socket. Usage: bench/driver-vs-pgbench.sh [clients] [seconds]
set -euo pipefail
clients=${1:-8}
seconds=${2:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d /tmp/probe-bench-XXXXXX)
run_as=()
if [ "$(id -u)" -eq 0 ]; then run_as=(runuser -u postgres --); chown postgres: "$work"; fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

cleanup() { "${run_as[@]}" "$bin/pg_ctl" stop -m fast -D "$work/data" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

echo "building probe (Release)..." >&2
dotnet build -c Release "$root/src/SqlWaitProbe.Cli" -o "$work/probe" -v q -nologo >/dev/null

"${run_as[@]}" "$bin/initdb" -D "$work/data" -U postgres --auth=trust --no-sync >/dev/null
cat >> "$work/data/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$work'
max_parallel_workers_per_gather = 0
shared_buffers = '256MB'
fsync = off
CONF
"${run_as[@]}" "$bin/pg_ctl" start -w -D "$work/data" -l "$work/server.log" >/dev/null

echo "SELECT 1;" > "$work/select1.sql"
chmod a+r "$work/select1.sql"
pg_tps=$("${run_as[@]}" "$bin/pgbench" -n -c "$clients" -j 2 -T "$seconds" -f "$work/select1.sql" -h "$work" -p "$port" -U postgres postgres \
  | awk '/^tps = /{print $3}')

probe_out=$(dotnet "$work/probe/probe.dll" capture --server "Host=$work;Port=$port;Username=postgres;Database=postgres" \
  --workload noop --threads "$clients" --duration "${seconds}s" --cpu none --no-baseline --no-analyze -o "$work/bundle" 2>/dev/null)
probe_tps=$(echo "$probe_out" | awk '$1=="load"{print $5}')

echo "cpus=$(nproc) clients=$clients seconds=$seconds"
echo "pgbench select1: $pg_tps tps"
echo "probe noop:      $probe_tps executions/s"
python3 -c "print('probe/pgbench = %.3f' % ($probe_tps/$pg_tps))"
