#!/usr/bin/env bash
# The long run of the fuzz tests (tests/fuzz.rs): each property (the
# notation and variant parsers, the API's query strings, damaged table
# files) runs for SECONDS seconds, batch after batch with fresh random
# seeds, on one thread; the record goes to OUT.
#
#   scripts/fuzz.sh SECONDS OUT        e.g. scripts/fuzz.sh 150 scripts/bench-runs/2026-12-03-fuzz
#
# OUT/fuzz.txt holds the command, the commit, the machine, and one line a
# property: how many cases it ran in how many seconds, none failed (a
# failing case stops the run with proptest's minimal input and exit 1).
# `cargo test` runs the same properties for 256 cases each.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/fuzz.sh SECONDS OUT   (SECONDS per property, at least 1; OUT a folder for fuzz.txt)" >&2
  exit 2
}
[ $# -eq 2 ] || usage
[[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] || usage
SECONDS_EACH="$1"
OUT="$2"
mkdir -p "$OUT"

# The commit the tests are built from (the tree may change while they run).
COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  COMMIT="$COMMIT with uncommitted changes"
fi
echo "== building the fuzz tests (cargo test's profile)"
cargo test --locked --test fuzz --no-run --quiet
START=$(date +%s)
STARTED=$(date -u +%FT%TZ)
status=0
ASALTO_FUZZ_SECONDS="$SECONDS_EACH" cargo test --locked --test fuzz --quiet -- \
  --test-threads 1 --nocapture > "$OUT/fuzz.log" 2>&1 || status=$?
{
  echo "command: scripts/fuzz.sh $SECONDS_EACH $OUT"
  echo "date: $STARTED to $(date -u +%FT%TZ)"
  echo "commit: $COMMIT"
  echo "machine: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "wall: $(($(date +%s) - START)) s, exit status $status"
  # (the harness's progress dots may share a line with a property's)
  grep -o 'fuzz [a-z]*: .*' "$OUT/fuzz.log" || true
  grep -E '^test result|minimal failing input' "$OUT/fuzz.log" || true
} | tee "$OUT/fuzz.txt"
exit $status
