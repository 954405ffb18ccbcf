# Sourced by the observer-effect benchmarks after pg-server.sh: prepares the hashbytes table on the throw-away server
# (with pg_wait_sampling and pg_stat_statements preloaded when installed, as the embedded server does, so waits come
# from it and statements are counted; PGSS=off leaves pg_stat_statements out), warms it up,
# and defines
#   window              pgbench alone for $seconds on as many connections as CPUs; prints its tps
#   attached TAG [ARG…] the same window while `probe capture --attach` collects with ARG… and the caller's
#                       ${extra[@]}; the window starts once the probe's collectors run (it needs 2-3 s) and ends
#                       before the probe stops, so its stop and perf script conversion run on an idle machine.
#   watched TAG [ARG…]  the same window while `probe watch` watches pgbench's sessions with a trigger that does not
#                       fire (--keep ${WATCH_KEEP:-10s}), started before the window and stopped with SIGTERM after it.
# Needs: $seconds, and extra=(…) (may be empty).
# PGSS=off leaves pg_stat_statements out (the embedded server loads it), to measure the statement collectors without
# it: statements then come from the session samples alone.
libdir=$("$bin/pg_config" --pkglibdir 2>/dev/null || echo /none)
preload=()
[ -f "$libdir/pg_wait_sampling.so" ] && preload+=(pg_wait_sampling)
[ "${PGSS:-on}" = on ] && [ -f "$libdir/pg_stat_statements.so" ] && preload+=(pg_stat_statements)
if (( ${#preload[@]} )); then
  echo "shared_preload_libraries = '$(IFS=,; echo "${preload[*]}")'" >> "$work/data/postgresql.conf"
  "${run_as[@]}" "$bin/pg_ctl" restart -w -D "$work/data" -l "$work/server.log" >/dev/null
  for e in "${preload[@]}"; do bench_psql -c "CREATE EXTENSION $e"; done
fi
echo "preloaded: ${preload[*]:-nothing}" >&2

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
  local tag=$1
  shift
  # Attach refuses a server with no client backend: one idle client holds a connection until the window's pgbench
  # connects (its pg_sleep is a wait of no cost to the measured clients).
  bench_psql -c "SELECT pg_sleep($((seconds + 12)))" >/dev/null 2>&1 &
  local holder=$!
  sleep 0.5
  "${probe[@]}" capture --engine postgres --server "$conn" --attach --duration "$((seconds + 6))s" --no-analyze \
    -o "$work/bundle-$tag" "$@" "${extra[@]}" >"$work/probe-$tag.log" 2>&1 &
  local pid=$!
  sleep 4
  window
  wait "$pid" || { echo "probe failed, see its output:" >&2; cat "$work/probe-$tag.log" >&2; exit 1; }
  kill "$holder" 2>/dev/null || true
  wait "$holder" 2>/dev/null || true
  rm -rf "$work/bundle-$tag"
}
watched() {
  local tag=$1 out="$work/watch-$1"
  shift
  "${probe[@]}" watch --engine postgres --server "$conn" --application pgbench --keep "${WATCH_KEEP:-10s}" --after 2s \
    --trigger 'wait:Lock>90%' -o "$out" "$@" "${extra[@]}" >"$work/probe-$tag.log" 2>&1 &
  local pid=$! waited=0
  # The window starts once the watch's first window runs its collectors (perf started, samplers polling).
  until grep -qs "window 1 started" "$out/probe.log"; do
    sleep 0.2
    waited=$((waited + 1))
    if (( waited > 150 )) || ! kill -0 "$pid" 2>/dev/null; then echo "the watch did not start, see its output:" >&2; cat "$work/probe-$tag.log" >&2; exit 1; fi
  done
  sleep 3
  window
  kill -TERM "$pid"
  wait "$pid" || true
  if ls "$out" | grep -q '^dump-'; then echo "the watch wrote a dump: its trigger fired" >&2; exit 1; fi
  rm -rf "$out"
}
