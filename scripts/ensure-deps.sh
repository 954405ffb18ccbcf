#!/usr/bin/env bash
# Installs what probe needs on Debian/Ubuntu when it is missing: the PostgreSQL server and contrib (embedded
# server, pgcrypto), pg_wait_sampling, perf, and what the report renders with. As root it runs apt-get; otherwise
# it prints the exact command. Quick and silent when everything is present.
set -euo pipefail

pg_major() {
  local newest
  newest=$(ls -1 /usr/lib/postgresql 2>/dev/null | sort -n | tail -1 || true)
  echo "${newest:-15}"
}

quiet=0
[ "${1:-}" = "--quiet" ] && quiet=1
missing=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

major=$(pg_major)
for pkg in postgresql postgresql-contrib "postgresql-${major}-pg-wait-sampling" linux-perf chromium librsvg2-bin fonts-dejavu-core; do
  have_pkg "$pkg" || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  [ "$quiet" = 1 ] || echo "ensure-deps: everything is installed."
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-deps: missing: ${missing[*]}"
  echo "Install them with:"
  echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing[*]}"
  exit 1
fi

echo "ensure-deps: installing ${missing[*]}"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
echo "ensure-deps: done."
