#!/usr/bin/env bash
# Peak memory of few long lines of many frames under PROBE_MAX_ANALYSIS_MIB (docs/reliability.md, "Limits on what a
# bundle may cost"): 100 lines of 100,000 distinct frames each (100 MB of folded stacks, every line under the 1 MiB line
# limit), given to `probe stacks speedscope` and, inside a crafted bundle, to `probe analyze`. Both must stop with exit 2
# naming the variable near the budget, not run on to several GB. Builds Release; files go to a scratch folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${SCRATCH:-/tmp/probe-bench-budget}"
budget="${BUDGET_MIB:-1024}"
runs="${RUNS:-3}"
mkdir -p "$scratch"
dotnet build "$root/src/SqlWaitProbe.Cli" -c Release -o "$scratch/bin" -v quiet -nologo >/dev/null
probe="$scratch/bin/probe"

big="$scratch/big.folded"
if [ ! -f "$big" ]; then
  python3 - "$big" <<'PY'
import sys
n = 0
with open(sys.argv[1], "w") as out:
    for _ in range(100):
        frames = []
        for _ in range(100000):
            frames.append("m!f%06x" % n)
            n += 1
        out.write("postgres;" + ";".join(frames) + " 7\n")
PY
fi

# A bundle of two phases whose load phase's stacks are that file, its manifest rehashed so it verifies.
bundle="$scratch/bundle"
if [ ! -d "$bundle" ]; then
  mkdir -p "$bundle/phases/baseline" "$bundle/phases/load/cpu"
  for phase in baseline load; do
    { echo "session,start_ms,end_ms,rows,error"; for i in $(seq 0 9); do echo "1,$((i * 10)),$((i * 10 + 10)),1,"; done; } > "$bundle/phases/$phase/executions.csv"
    { echo "session,backend_pid,db_session_id,cpu_ms,run_queue_ms"; echo "1,1001,51,50,"; } > "$bundle/phases/$phase/sessions.csv"
  done
  cp "$big" "$bundle/phases/load/cpu/stacks.folded"
  python3 - "$bundle" <<'PY'
import hashlib, json, os, sys
root = sys.argv[1]
files = []
for folder, _, names in os.walk(os.path.join(root, "phases")):
    for name in sorted(names):
        path = os.path.join(folder, name)
        data = open(path, "rb").read()
        files.append({"path": os.path.relpath(path, root), "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
phase = lambda name, start: {"name": name, "threads": 1, "executions": 10, "startUtc": start, "endUtc": start.replace(":00.", ":01.")}
json.dump({"schemaVersion": 1, "engine": "postgres", "status": "complete", "serverProcess": "postgres", "workload": "bench",
           "startUtc": "2026-01-05T10:00:00.000Z", "options": {}, "collectors": [], "files": files,
           "phases": [phase("baseline", "2026-01-05T10:00:00.000Z"), phase("load", "2026-01-05T10:01:00.000Z")]},
          open(os.path.join(root, "manifest.json"), "w"), indent=2)
PY
fi

measure() {
  local name="$1"; shift
  for run in $(seq "$runs"); do
    rm -rf "$scratch/out"
    set +e
    PROBE_MAX_ANALYSIS_MIB="$budget" /usr/bin/time -f "%x %M %e" -o "$scratch/time.txt" "$@" > /dev/null 2> "$scratch/err.txt"
    set -e
    # With a non-zero exit, time first writes a "Command exited with non-zero status" line: the figures are the last line.
    read -r code rss secs < <(tail -n 1 "$scratch/time.txt")
    awk -v n="$name" -v r="$run" -v c="$code" -v m="$rss" -v s="$secs" 'BEGIN { printf "%s run %d: exit %s, peak RSS %.2f GiB, %s s\n", n, r, c, m/1048576, s }'
  done
  tail -n 1 "$scratch/err.txt"
}

echo "input: $big ($(stat -c %s "$big") bytes), PROBE_MAX_ANALYSIS_MIB=$budget"
measure "stacks speedscope" "$probe" stacks speedscope "$big" -o "$scratch/out"
measure "analyze" "$probe" analyze "$bundle" -o "$scratch/out"
