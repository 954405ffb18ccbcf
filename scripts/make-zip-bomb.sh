#!/usr/bin/env bash
# Writes the zip bomb of docs/reliability.md: a bundle zip of about 2 MB whose executions.csv expands to 2 GiB of
# zeros. Usage: scripts/make-zip-bomb.sh OUT.zip [GiB]. The file is generated, never stored in the repository.
set -euo pipefail
out="${1:?usage: make-zip-bomb.sh OUT.zip [GiB]}"
gib="${2:-2}"
python3 - "$out" "$gib" <<'PY'
import sys, zipfile
out, gib = sys.argv[1], int(sys.argv[2])
manifest = ('{"schemaVersion": 1, "engine": "postgres", "status": "complete", "startUtc": "2026-01-05T10:00:00Z",'
            ' "options": {}, "collectors": [], "files": [], "phases": [{"name": "load", "threads": 1}]}')
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr("manifest.json", manifest)
    with z.open("phases/load/executions.csv", "w", force_zip64=True) as f:
        block = b"\0" * (1 << 20)
        for _ in range(gib * 1024):
            f.write(block)
PY
echo "wrote $out ($(stat -c %s "$out") bytes, ${gib} GiB of zeros inside)"
