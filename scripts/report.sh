#!/usr/bin/env bash
# Make a variant-balance report from complete tables: win/draw/loss shares,
# longest wins, critical mass and rule sensitivity of the four presets (or
# the variants in $VARIANTS) with 9..=K soldiers, as report.md, report.json,
# CSV files and SVG plots in one folder.
#
#   scripts/report.sh [K] [more `asalto report` options]
#   scripts/report.sh 9
#   scripts/report.sh 10 --build        # build missing tables first
#
# Environment: ASALTO_TABLES (default tables), VARIANTS (comma-separated,
# default the four presets), OUT (default <tables>/reports/<UTC time>).
# The folder also gets provenance.txt (the exact command, commit, machine).
# Then, to plot the comparisons in Jupyter:
#   ASALTO_REPORT=<folder> jupyter lab notebooks/balance.ipynb
set -euo pipefail
cd "$(dirname "$0")/.."

K="9"
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  K="$1"
  shift
fi
TABLES="${ASALTO_TABLES:-tables}"
VARIANTS="${VARIANTS:-assaut,assaut-mdj,asalto,assault}"
OUT="${OUT:-$TABLES/reports/$(date -u +%Y%m%d-%H%M%S)}"
. scripts/common.sh
build_asalto

CMD=("$ASALTO" report --variants "$VARIANTS" --soldiers "9..=$K" --tables "$TABLES" --out "$OUT" "$@")
echo "== ${CMD[*]}"
start=$(date +%s)
"${CMD[@]}"
{
  echo "command: scripts/report.sh $K $*"
  echo "ran: ${CMD[*]}"
  echo "date: $(date -u +%FT%TZ)"
  echo "seconds: $(( $(date +%s) - start ))"
  provenance
} > "$OUT/provenance.txt"
echo "== done: $OUT/report.md (with report.json, CSV files, SVG plots, provenance.txt)"
echo "notebook: ASALTO_REPORT=$OUT jupyter lab notebooks/balance.ipynb"
