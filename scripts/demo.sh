#!/usr/bin/env bash
# The main job on a small built-in default, about 2.5 minutes on 2 cores
# (release compile included; scripts/bench-runs/2026-12-04-suite/):
# a real variant-balance report of the four presets over every position
# reachable from the 10-soldier critical-mass formation (the 10 outside
# points nearest the fortress, officers on c6 e6, soldiers to move).
#
#   scripts/demo.sh
#
# 1. builds the release binary;
# 2. builds, for each preset, the tables that formation needs (partial
#    tables: `asalto build --for`; each build prints how many positions)
#    under tables/demo (skipped when already there);
# 3. writes the report (report.md, report.json, CSV, SVG) to
#    tables/reports/demo and prints its summary.
# Environment: THREADS (default: one per core).
set -euo pipefail
cd "$(dirname "$0")/.."

TABLES="tables/demo"
OUT="tables/reports/demo"
ROOT='3/O1O/SS3SS/SSSSSS1/7/3/3 s'
VARIANTS=(assaut assaut-mdj asalto assault)
THREADS="${THREADS:-0}"
start=$(date +%s)

. scripts/common.sh
build_asalto

for v in "${VARIANTS[@]}"; do
  echo "== $v: tables for every position reachable from '$ROOT' (under $TABLES)"
  "$ASALTO" build --variant "$v" --for "$ROOT" --tables "$TABLES" --threads "$THREADS" | tail -n 3
done

echo "== report of ${VARIANTS[*]} in $OUT"
rm -rf "$OUT"
"$ASALTO" report --variants "$(IFS=,; echo "${VARIANTS[*]}")" --soldiers 9..=10 \
  --tables "$TABLES" --out "$OUT" --allow-missing --threads "$THREADS"

echo "done in $(( $(date +%s) - start )) s: open $OUT/report.md (plots beside it)."
echo "The tables are under $TABLES, not the default tables/: say so to the other commands, e.g."
echo "  $ASALTO info --tables $TABLES"
echo "  $ASALTO query --tables $TABLES '$ROOT'"
echo "  $ASALTO serve --tables $TABLES"
echo "For the notebook: python3 -m pip install -r notebooks/requirements.txt jupyterlab, then"
echo "  ASALTO_REPORT=$OUT jupyter lab notebooks/balance.ipynb"
