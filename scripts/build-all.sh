#!/usr/bin/env bash
# Build the complete tables of the four presets (or of the variants in
# $VARIANTS, comma-separated) with 9..=K soldiers, one and two officers.
#
#   scripts/build-all.sh K            # e.g. scripts/build-all.sh 9
#
# Environment: ASALTO_TABLES (the tables folder, default tables),
# VARIANTS (default: the four presets), THREADS (default: one per core).
# Files already built are skipped, so an interrupted run resumes. Prints
# each file as it is done, then where the tables are; a log with the exact
# command, the machine and the timings goes to <tables>/build-<time>.log.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || [ "$1" -lt 9 ] || [ "$1" -gt 24 ]; then
  echo "usage: scripts/build-all.sh K   (K = most soldiers, 9..24)" >&2
  exit 2
fi
K="$1"
TABLES="${ASALTO_TABLES:-tables}"
VARIANTS="${VARIANTS:-assaut,assaut-mdj,asalto,assault}"
THREADS="${THREADS:-0}"
. scripts/common.sh
build_asalto
mkdir -p "$TABLES"
LOG="$TABLES/build-$(date -u +%Y%m%d-%H%M%S).log"
{
  echo "command: scripts/build-all.sh $K"
  echo "date: $(date -u +%FT%TZ)"
  provenance
} > "$LOG"

IFS=',' read -ra LIST <<< "$VARIANTS"
for v in "${LIST[@]}"; do
  echo "== $v: tables with 9..=$K soldiers under $TABLES/"
  "$ASALTO" build --variant "$v" --soldiers "9..=$K" --tables "$TABLES" --threads "$THREADS" \
    2>&1 | tee -a "$LOG"
done
echo "== done: tables under $TABLES/ (${VARIANTS//,/, }), log in $LOG"
echo "next: scripts/report.sh $K   (a variant-balance report from these tables)"
