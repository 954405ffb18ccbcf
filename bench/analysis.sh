#!/usr/bin/env bash
# Analysis memory and time on large bundles: 1x = one phase with 1,000,000 stack samples (folded as in a real
# bundle: 25,000 distinct stacks of 8-27 frames over a SQL Server-like module vocabulary, weights summing to one
# million) and 10,000,000 XE page events; then 2x and 4x (samples, distinct stacks and events all scale). Shows peak
# memory and time against input size. Inputs go to a scratch folder. DISTINCT=1000000 gives the adversarial case of
# one distinct stack per sample.
# Usage: bench/analysis.sh [scales...]   (default: 1 2 4; SCRATCH=/path to choose where the bundles go)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${SCRATCH:-/tmp/probe-bench-analysis}"
scales=("$@"); [ ${#scales[@]} -gt 0 ] || scales=(1 2 4)
mkdir -p "$scratch"
dotnet build "$root/src/SqlWaitProbe.Cli" -c Release -o "$scratch/bin" -v quiet -nologo >/dev/null
probe="$scratch/bin/probe"

make_bundle() { # scale folder
  local scale=$1 dir=$2 lines events start
  lines=$((1000000 * scale)); events=$((10000000 * scale))
  rm -rf "$dir"; mkdir -p "$dir/phases/load/cpu" "$dir/phases/load/xe"
  start="2026-01-01T00:00:00Z"
  cat > "$dir/manifest.json" <<JSON
{ "schemaVersion": 1, "toolVersion": "bench", "runId": "bench", "host": "bench", "os": "linux", "logicalCpus": 2,
  "engine": "sqlserver", "serverVersion": "bench", "serverProcess": "sqlservr", "workload": "hashbytes",
  "options": {}, "status": "complete", "startUtc": "$start", "endUtc": "2026-01-01T00:10:00Z",
  "phases": [ { "name": "load", "threads": 8, "startUtc": "$start", "endUtc": "2026-01-01T00:10:00Z", "executions": 8000, "errors": 0 } ],
  "collectors": [], "files": [] }
JSON
  awk 'BEGIN { print "session,start_ms,end_ms,rows,error"; for (i = 0; i < 8000; i++) printf "%d,%d,%d,1,\n", i % 8 + 1, i * 75, i * 75 + 600 }' > "$dir/phases/load/executions.csv"
  awk 'BEGIN { print "session,backend_pid,db_session_id,cpu_ms,run_queue_ms"; for (s = 1; s <= 8; s++) printf "%d,,%d,400000,\n", s, 50 + s }' > "$dir/phases/load/sessions.csv"
  # Distinct stacks with weights summing to the sample count, as the capture writes them.
  local distinct=$(( ${DISTINCT:-25000} * scale ))
  awk -v n="$distinct" -v total="$lines" 'BEGIN { srand(11); split("sqldk sqlmin sqllang bcrypt bcryptprimitives ntoskrnl hal kernelbase", mod, " ");
      w = int(total / n); if (w < 1) w = 1;
      for (i = 0; i < n; i++) { d = 8 + int(rand() * 20); s = "sqlservr";
        for (j = 0; j < d; j++) { m = mod[1 + int(rand() * 8)]; s = s ";" m "!Fn" int(rand() * 400) (m == "ntoskrnl" || m == "hal" ? "_[k]" : "") }
        print s, w } }' > "$dir/phases/load/cpu/stacks.folded"
  awk -v n="$events" 'BEGIN { print "utc,event,session_id,memory_clerk_name,pages"; srand(5);
      split("MEMORYCLERK_SOSNODE MEMORYCLERK_SQLQUERYEXEC MEMORYCLERK_SQLBUFFERPOOL OBJECTSTORE_LOCK_MANAGER", clerk, " ");
      for (i = 0; i < n; i++) { t = int(i * 600 / n); printf "2026-01-01T00:%02d:%02d.%03dZ,%s,%d,%s,1\n", int(t / 60), t % 60, i % 1000, (i % 2 ? "page_freed" : "page_allocated"), 51 + i % 8, clerk[1 + i % 4] } }' \
      > "$dir/phases/load/xe/page_events.csv"
}

for scale in "${scales[@]}"; do
  dir="$scratch/bundle-${scale}x"
  echo "== ${scale}x: generating"
  make_bundle "$scale" "$dir"
  du -sh "$dir/phases/load/cpu/stacks.folded" "$dir/phases/load/xe/page_events.csv"
  /usr/bin/time -v "$probe" analyze "$dir" -o "$scratch/report-${scale}x" >/dev/null 2> "$scratch/time-${scale}x.txt" || { tail -5 "$scratch/time-${scale}x.txt"; exit 1; }
  wall=$(grep 'Elapsed (wall clock)' "$scratch/time-${scale}x.txt" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$scratch/time-${scale}x.txt" | awk '{printf "%.0f", $NF/1024}')
  user=$(grep 'User time' "$scratch/time-${scale}x.txt" | awk '{print $NF}')
  echo "${scale}x: wall ${wall}, user CPU ${user} s, peak RSS ${rss} MiB"
done
