#!/usr/bin/env bash
# Installs what probe needs on Debian/Ubuntu when it is missing. As root it runs apt-get; otherwise it prints the
# exact command. Quick and silent when everything is present. Everything it writes goes to stderr, so a first
# `./probe … --format json` still prints only JSON on stdout.
#
#   ensure-deps.sh --tool    what `./probe` needs: the PostgreSQL server and contrib (embedded server, pgcrypto),
#                            pg_wait_sampling (optional), perf, and the chart font. A user who cannot install them is
#                            told the command and the tool still runs (`analyze`, `stacks` and `compare` need none).
#   ensure-deps.sh           the tool's packages and the tests' own: Chromium (the HTML reports are checked in
#                            headless Chromium) and golang-go (`go tool pprof` reads back the pprof files).
#                            Missing packages that cannot be installed stop the test run.
set -euo pipefail
exec 1>&2

pg_major() {
  local newest
  newest=$(ls -1 /usr/lib/postgresql 2>/dev/null | sort -n | tail -1 || true)
  echo "${newest:-15}"
}

tool_only=0
[ "${1:-}" = "--tool" ] && tool_only=1
missing=()
# Output is read whole before matching: with pipefail, `cmd | grep -q` fails when grep stops reading early and
# cmd dies of SIGPIPE, which made present packages look missing and available ones unavailable.
have_pkg() { local s; s=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true); [[ "$s" == *"install ok installed"* ]]; }
can_install() { local p; p=$(apt-cache policy "$1" 2>/dev/null || true); [[ "$p" =~ Candidate:\ [0-9] ]]; }

major=$(pg_major)
wanted=(postgresql postgresql-contrib "postgresql-${major}-pg-wait-sampling" linux-perf fonts-dejavu-core)
[ "$tool_only" = 1 ] || wanted+=(chromium golang-go)
for pkg in "${wanted[@]}"; do
  have_pkg "$pkg" || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  [ "$tool_only" = 1 ] || echo "ensure-deps: everything is installed."
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-deps: missing: ${missing[*]}"
  echo "Install them with:"
  echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing[*]}"
  [ "$tool_only" = 1 ] && exit 0
  exit 1
fi

apt-get update -q
# Install only what this distribution has (pg_wait_sampling is optional: waits then come from pg_stat_activity).
available=()
for pkg in "${missing[@]}"; do
  if can_install "$pkg"; then
    available+=("$pkg")
  else
    echo "ensure-deps: $pkg is not available from the configured apt sources; continuing without it"
  fi
done
if [ ${#available[@]} -gt 0 ]; then
  echo "ensure-deps: installing ${available[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${available[@]}"
fi
# The server's major version is known only once it is installed.
wait_sampling="postgresql-$(pg_major)-pg-wait-sampling"
if ! have_pkg "$wait_sampling" && can_install "$wait_sampling"; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$wait_sampling"
fi
echo "ensure-deps: done."
