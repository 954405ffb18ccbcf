#!/usr/bin/env bash
# Fold throughput and peak memory of `probe stacks fold`, and flame graph rendering of a 1-million-sample profile.
# Builds Release, makes a 200+ MB perf script input by concatenating copies of the real PostgreSQL capture in
# tests/data (written to a scratch folder, never committed), and measures with /usr/bin/time -v (process start included).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${SCRATCH:-/tmp/probe-bench}"
copies="${COPIES:-170}"
mkdir -p "$scratch"
dotnet build "$root/src/SqlWaitProbe.Cli" -c Release -o "$scratch/bin" -v quiet -nologo >/dev/null
probe="$scratch/bin/probe"

big="$scratch/big.perf.txt"
if [ ! -f "$big" ]; then
  one="$scratch/one.perf.txt"
  gzip -dc "$root/tests/data/perf-script/local__pg15-digest-1session.perf.txt.gz" > "$one"
  : > "$big"
  for _ in $(seq "$copies"); do cat "$one" >> "$big"; done
fi
bytes=$(stat -c %s "$big")
echo "input: $big, $bytes bytes"

echo "== fold (3 runs)"
for run in 1 2 3; do
  /usr/bin/time -v "$probe" stacks fold "$big" -o /dev/null 2> "$scratch/time-$run.txt"
  secs=$(grep 'Elapsed (wall clock)' "$scratch/time-$run.txt" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep 'Maximum resident set size' "$scratch/time-$run.txt" | awk '{print $NF}')
  awk -v b="$bytes" -v s="$secs" -v r="$rss" -v n="$run" 'BEGIN { printf "run %d: %.2f s, %.0f MB/s, peak RSS %.1f MiB\n", n, s, b/1e6/s, r/1024 }'
done

echo "== flame graph of a 1,000,000-sample profile"
# The capture's folded stacks with each weight scaled so the total is about one million samples.
"$probe" stacks fold "$root/tests/data/perf-script/local__pg15-digest-1session.perf.txt.gz" -o "$scratch/pg.folded"
awk '{ n=$NF; $NF=""; sub(/ $/, ""); w=int(n/2004008*406); if (w>0) print $0, w }' "$scratch/pg.folded" > "$scratch/million.folded"
awk '{ s+=$NF } END { print "samples: " s }' "$scratch/million.folded"
/usr/bin/time -v "$probe" stacks flamegraph "$scratch/million.folded" -o "$scratch/million.svg" 2> "$scratch/time-svg.txt"
grep -E 'Elapsed|Maximum resident' "$scratch/time-svg.txt"
echo "svg bytes: $(stat -c %s "$scratch/million.svg")"

echo "== flame graph of 1,000,000 distinct random stacks (worst case for size)"
awk 'BEGIN { srand(7); for (i = 0; i < 1000000; i++) { s = "app"; d = 3 + int(rand() * 20); for (j = 0; j < d; j++) s = s ";f" int(rand() * 50); print s, 1 } }' > "$scratch/random.folded"
/usr/bin/time -v "$probe" stacks flamegraph "$scratch/random.folded" -o "$scratch/random.svg" 2> "$scratch/time-random.txt"
grep -E 'Elapsed|Maximum resident' "$scratch/time-random.txt"
echo "svg bytes: $(stat -c %s "$scratch/random.svg")"
