#!/usr/bin/env bash
# The load test of `asalto serve` behind the README's latencies: builds the
# release binary and, in a scratch folder, the tables of one ten-soldier
# position (`build --for`, a second), starts the server there on a free
# port of 127.0.0.1, runs scripts/serve-load.py (REQUESTS requests from
# CLIENTS clients, a mix of the API's routes and the page), and stops the
# server with Ctrl-C (SIGINT). Exit 1 on any error.
#
#   scripts/serve-load.sh [REQUESTS] [CLIENTS]
#   scripts/serve-load.sh 2000 16 | tee scripts/bench-runs/DATE-serve/run.txt
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

REQUESTS="${1:-2000}"
CLIENTS="${2:-16}"
if [ -n "${ASALTO_BIN:-}" ]; then ASALTO="$ASALTO_BIN"; else build_asalto; fi

echo "command: scripts/serve-load.sh $REQUESTS $CLIENTS${ASALTO_BIN:+ (binary: $ASALTO_BIN)}"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
provenance
echo "python: $(python3 --version 2>&1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

dir=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid"; fi
  rm -rf "$dir"
}
trap cleanup EXIT

"$ASALTO" build --for 'SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s' --tables "$dir" > /dev/null 2>&1
echo "tables: $(ls "$dir/assaut" | tr '\n' ' ')(build --for 'SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s')"
"$ASALTO" serve --port 0 --tables "$dir" > "$dir/serve.out" 2> "$dir/serve.err" &
pid=$!
url=""
for _ in $(seq 100); do
  url=$(grep -o 'http://[^ ]*' "$dir/serve.out" || true)
  [ -n "$url" ] && break
  sleep 0.05
done
[ -n "$url" ] || { echo "the server did not start:"; cat "$dir/serve.err"; exit 1; }
echo "server: $(cat "$dir/serve.out")"
status=0
python3 scripts/serve-load.py "$url" "$REQUESTS" "$CLIENTS" || status=$?
echo "server RSS at the end: $(awk '/VmHWM/ {print $2, $3, "(peak)"}' "/proc/$pid/status")"
kill -INT "$pid"
wait "$pid" || status=$?
pid=""
echo "server stopped by SIGINT: $(cat "$dir/serve.err")"
exit "$status"
