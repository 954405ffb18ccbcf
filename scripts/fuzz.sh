#!/usr/bin/env bash
# Full fuzz run of every parser (folded, deep and wide folded stacks drawn as flame graphs, perf script, speedscope,
# .xel, .stacktags, PDH-CSV, bundles, .etl and .etl.zip traces): 100000 mutated inputs each (override with
# PROBE_FUZZ_ITERATIONS; the deep and wide stacks, large inputs, get a twentieth).
set -euo pipefail
cd "$(dirname "$0")/.."
export PROBE_FUZZ_ITERATIONS="${PROBE_FUZZ_ITERATIONS:-100000}"
export PROBE_FUZZ_REPORT="${PROBE_FUZZ_REPORT:-$(mktemp -t probe-fuzz-report.XXXXXX)}"
: > "$PROBE_FUZZ_REPORT"
start=$(date +%s)
status=0
dotnet test tests/SqlWaitProbe.Cli.Tests -c Release --filter Category=Fuzz || status=$?
echo "fuzz run: ${PROBE_FUZZ_ITERATIONS} iterations per parser, $(( $(date +%s) - start )) s, exit ${status}"
sort "$PROBE_FUZZ_REPORT"
exit "$status"
