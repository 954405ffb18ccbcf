# Sourced by the benchmarks: builds the probe as ./probe does and starts one throw-away PostgreSQL server with the
# embedded server's settings on a private socket. Sets: root, bin, work, port, run_as, conn (Npgsql string),
# probe (command array). The server and the folder are removed on exit.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d /tmp/probe-bench-XXXXXX)
run_as=()
if [ "$(id -u)" -eq 0 ]; then run_as=(runuser -u postgres --); chown postgres: "$work"; fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

bench_cleanup() { "${run_as[@]}" "$bin/pg_ctl" stop -m fast -D "$work/data" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap bench_cleanup EXIT

if [ -n "${PROBE_DLL:-}" ]; then
  probe=(dotnet "$PROBE_DLL")   # benchmark a given build instead
else
  # The same build users run: the ./probe launcher's (Release, ReadyToRun where available).
  "$root/probe" --version >/dev/null
  probe=(dotnet "$root/artifacts/probe/probe.dll")
fi

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
conn="Host=$work;Port=$port;Username=postgres;Database=postgres"

# psql and pgbench against the throw-away server, as its owner.
bench_psql() { "${run_as[@]}" "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$work" -p "$port" -U postgres -d postgres "$@"; }
bench_pgbench() { "${run_as[@]}" "$bin/pgbench" -h "$work" -p "$port" -U postgres "$@" postgres; }
