#!/usr/bin/env bash
# Start time of the source checkout's launcher after a test build: `./probe --version` once to build the tool if
# needed, then the files a test build writes under src/*/obj and src/*/bin are touched and `./probe --version` is
# timed RUNS times (wall and CPU of the launcher with every process it waited for), the launcher's own share apart.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${RUNS:-5}"
cd "$root"
./probe --version >/dev/null
find src \( -path '*/obj/*' -o -path '*/bin/*' \) -type f -exec touch {} +
TIMEFORMAT='%R s wall, %U s user, %S s sys'
echo "== ./probe --version after a test build ($runs runs, load average $(cut -d' ' -f1 /proc/loadavg))"
for _ in $(seq "$runs"); do { time ./probe --version >/dev/null 2>/tmp/probe-launcher-bench.err; } 2>&1; done
if grep -q building /tmp/probe-launcher-bench.err; then echo "rebuilt: the launcher took a test build for a source change"; exit 1; fi
echo "== of which the tool itself: dotnet artifacts/probe/probe.dll --version"
for _ in $(seq "$runs"); do { time dotnet artifacts/probe/probe.dll --version >/dev/null; } 2>&1; done
