#!/usr/bin/env bash
# Where the time goes: a CPU profile (Linux perf, sampling) of one asalto
# command, printed as the share of samples per function and per source
# file, with the command, commit and machine. The evidence behind a speed
# figure that misses its target (README "Figures").
#
#   scripts/profile.sh [OUT] [-- ASALTO-ARGS...]
#
#   scripts/profile.sh                       the bench closure's in-memory
#                                            solve on one thread, 5 runs
#   scripts/profile.sh out -- build --soldiers 9 --wdl-only --tables /tmp/t
#
# OUT (default: target/profile) receives profile.txt (what is printed) and
# perf.data. Needs `perf` (Debian: apt-get install linux-perf) and a kernel
# that lets this user sample (root, or kernel.perf_event_paranoid <= 1).
# The release profile keeps line tables (Cargo.toml: debug = 1), so the
# per-file shares name the solver's sources. RUNS (default 5) repeats the
# command so that short commands give enough samples; FREQ (default 1999)
# is the sampling rate per second. FILES=0 leaves out the per-file shares:
# perf's line lookup for them takes minutes on long profiles (over 8 min for
# the 383 K samples of 100 s of a two-thread build).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="target/profile"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  OUT="$1"
  shift
fi
if [ $# -gt 0 ]; then
  [ "$1" = "--" ] || { echo "usage: scripts/profile.sh [OUT] [-- ASALTO-ARGS...]" >&2; exit 2; }
  shift
fi
ARGS=("$@")
[ ${#ARGS[@]} -gt 0 ] || ARGS=(solve --threads 1 'S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s')
RUNS="${RUNS:-5}"
FREQ="${FREQ:-1999}"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "error: RUNS must be a positive integer, not '$RUNS'" >&2; exit 2; }
[[ "$FREQ" =~ ^[1-9][0-9]*$ ]] || { echo "error: FREQ must be a positive integer, not '$FREQ'" >&2; exit 2; }
command -v perf > /dev/null || { echo "error: perf is not installed (Debian: apt-get install linux-perf)" >&2; exit 1; }

. scripts/common.sh
build_asalto
mkdir -p "$OUT"
DATA="$OUT/perf.data"
REPORT="$OUT/profile.txt"

# One perf session over RUNS runs of the command (its output discarded).
echo "== profiling: asalto ${ARGS[*]} ($RUNS runs, $FREQ samples/s)"
# The last run's exit status is recorded, not fatal: a build stopped by
# --stop-after exits 75, and its profile is as good as a finished one's.
T0=$SECONDS
STATUS=0
perf record -q -F "$FREQ" -o "$DATA" -- \
  bash -c 'n=$1; shift; for _ in $(seq "$n"); do "$@" > /dev/null; done' _ "$RUNS" "$ASALTO" "${ARGS[@]}" \
  2> "$OUT/perf-record.log" || STATUS=$?
[ -s "$DATA" ] || { echo "error: perf wrote no profile: $(tail -n 1 "$OUT/perf-record.log")" >&2; exit 1; }
WALL=$((SECONDS - T0))

# Shares of the samples in asalto's own process, by symbol and by file.
symbols() {
  perf report -i "$DATA" --comm asalto --no-children --sort symbol --stdio 2> /dev/null |
    grep -v '^#' | grep -v '^$' | sed 's/[ -]*$//' | awk 'NR <= 25'
}
files() {
  perf report -i "$DATA" --comm asalto --no-children --sort srcfile --stdio 2> /dev/null |
    grep -v '^#' | grep -v '^$' | awk 'NR <= 15'
}
{
  echo "command: scripts/profile.sh $OUT -- ${ARGS[*]}"
  echo "date: $(date -u +%FT%TZ)"
  echo "runs: $RUNS, $FREQ samples/s, ${WALL} s wall in all, last exit status $STATUS"
  provenance
  echo "samples: $(perf report -i "$DATA" --comm asalto --stdio 2> /dev/null | awk '/^# Samples:/ { print $3; exit }')"
  echo
  echo "== share of samples by function (self time)"
  symbols
  echo
  if [ "${FILES:-1}" != 0 ]; then
    echo "== share of samples by source file (base name, from the line tables; inlined std code counts under std's files)"
    files
  fi
} | tee "$REPORT"
echo "== written: $REPORT (perf.data beside it: perf report -i $DATA)"
