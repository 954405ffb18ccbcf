#!/usr/bin/env bash
# Reading Windows traces (.etl): the managed reader's speed and memory on the two real PerfView traces in
# ../shared/data/etl, and whether memory stays flat as a trace grows (synthetic traces of 16, 66 and 262 MB).
#   EtlBench read FILE RUNS   reads in one process after a warm-up read: s, MB/s of the file, events/s, peak RSS
#   probe stacks fold FILE    the whole command under /usr/bin/time -v (process start included)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${SCRATCH:-/tmp/probe-bench-etl}"
runs="${RUNS:-5}"
mkdir -p "$scratch"
dotnet build "$root/src/SqlWaitProbe.Cli" -c Release -o "$scratch/bin" -v quiet -nologo >/dev/null
dotnet build "$root/bench/EtlBench" -c Release -o "$scratch/benchbin" -v quiet -nologo >/dev/null
probe="$scratch/bin/probe"
bench="$scratch/benchbin/EtlBench"

measure() {
  /usr/bin/time -v "$@" 2> "$scratch/time.txt" >/dev/null
  secs=$(grep 'Elapsed (wall clock)' "$scratch/time.txt" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep 'Maximum resident set size' "$scratch/time.txt" | awk '{print $NF}')
  awk -v s="$secs" -v r="$rss" 'BEGIN { printf "%.2f s wall, peak RSS %.0f MiB\n", s, r/1024 }'
}

for trace in x64 x86; do
  zip="$root/../shared/data/etl/perfview__net.4.5.2.$trace.etl.zip"
  etl="$scratch/$trace.etl"
  [ -f "$etl" ] || unzip -p "$zip" "net.4.5.2.$trace.etl" > "$etl"
  echo "== $trace: $(stat -c %s "$etl") bytes, read in one process ($runs runs after a warm-up)"
  "$bench" read "$etl" "$runs"
  echo "== $trace: probe stacks fold of the .etl.zip (3 runs, process start and unzip included)"
  for _ in 1 2 3; do measure "$probe" stacks fold "$zip" -o /dev/null; done
done

echo "== memory as the trace grows (synthetic: 8 processors, samples every ms with cached stacks, context switches)"
for segments in 10 40 160; do
  synth="$scratch/synth$segments.etl"
  [ -f "$synth" ] || "$bench" synth "$synth" "$segments" >/dev/null
  printf "%s MB: " "$(( $(stat -c %s "$synth") / 1000000 ))"
  measure "$probe" stacks fold "$synth" -o /dev/null
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
