#!/usr/bin/env bash
# Time `asalto query` as a fresh process on the tables under tables/ (or
# $TABLES): the median wall time of RUNS runs, after one untimed run that
# brings the files into the page cache. For positions with more soldiers
# than `asalto bench` measures (it uses the tables up to 9). ASALTO_BIN=path
# times that binary instead of building this checkout's.
#
#   scripts/query-time.sh 'POSITION' [VARIANT] [RUNS]
#   scripts/query-time.sh 'S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s' assaut 15
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

POSITION="${1:?usage: scripts/query-time.sh 'POSITION' [VARIANT] [RUNS]}"
VARIANT="${2:-assaut}"
RUNS="${3:-15}"
TABLES="${TABLES:-tables}"
if [ -n "${ASALTO_BIN:-}" ]; then ASALTO="$ASALTO_BIN"; else build_asalto; fi

echo "command: scripts/query-time.sh '$POSITION' $VARIANT $RUNS (tables: $TABLES${ASALTO_BIN:+, binary: $ASALTO_BIN})"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
provenance
"$ASALTO" query --variant "$VARIANT" --tables "$TABLES" "$POSITION" > /dev/null
times=()
for _ in $(seq "$RUNS"); do
  start=$(date +%s%N)
  "$ASALTO" query --variant "$VARIANT" --tables "$TABLES" "$POSITION" > /dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
median=${sorted[$(( RUNS / 2 ))]}
echo "runs: $RUNS, wall time per query process (us): min ${sorted[0]}, median $median, max ${sorted[$(( RUNS - 1 ))]}"
echo "files: $(ls "$TABLES/$VARIANT" | tr '\n' ' ')"
