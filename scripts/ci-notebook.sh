#!/usr/bin/env bash
# CI check of the report pipeline and the notebook, end to end on real (but
# small) data, in a few minutes on a 2-core machine:
#
#   1. a Python virtual environment under target/nb-venv with
#      notebooks/requirements.txt;
#   2. partial tables for two presets (assaut, asalto): every tier the
#      10-soldier critical-mass formation needs (asalto build --for), under
#      target/ci-tables;
#   3. a report over them (asalto report, 9..=10 soldiers) in target/ci-report;
#   4. notebooks/balance.ipynb executed headless on that report; the executed
#      copy is target/ci-report/balance.executed.ipynb.
#
# The CI runs this script (if executable) after `cargo test --locked`, whose
# build of the binary (test profile) it reuses.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
VENV="$TARGET/nb-venv"
TABLES="$TARGET/ci-tables"
REPORT="$TARGET/ci-report"
# The formation of 10 soldiers (see `asalto report`), officers on c6 e6.
ROOT='3/O1O/SS3SS/SSSSSS1/7/3/3 s'
VARIANTS=(assaut asalto)
start=$(date +%s)

echo "== notebook: python environment ($VENV)"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r notebooks/requirements.txt

echo "== notebook: asalto binary (test profile, as built by cargo test)"
cargo build --locked --quiet --profile test --bin asalto
ASALTO="$TARGET/debug/asalto"

echo "== notebook: partial tables for ${VARIANTS[*]} under $TABLES (closure of '$ROOT')"
for v in "${VARIANTS[@]}"; do
  "$ASALTO" build --variant "$v" --for "$ROOT" --tables "$TABLES" | tail -n 2
done

echo "== notebook: report in $REPORT"
rm -rf "$REPORT"
"$ASALTO" report --variants "$(IFS=,; echo "${VARIANTS[*]}")" --soldiers 9..=10 \
  --tables "$TABLES" --out "$REPORT"

echo "== notebook: executing notebooks/balance.ipynb on $REPORT"
ASALTO_REPORT="$(cd "$REPORT" && pwd)" "$VENV/bin/jupyter" nbconvert --to notebook --execute \
  notebooks/balance.ipynb --output-dir "$REPORT" --output balance.executed.ipynb \
  --ExecutePreprocessor.timeout=300
test -s "$REPORT/balance.executed.ipynb"
echo "notebook ok: $REPORT/balance.executed.ipynb ($(( $(date +%s) - start )) s in all)"
