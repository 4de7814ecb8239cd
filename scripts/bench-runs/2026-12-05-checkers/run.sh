#!/bin/bash
# The two checkers of WDL-only tables (sets, positions) on one set of tables, one commit.
set -u
cd /work/run-wt
export CARGO_TARGET_DIR=/work/run-target
REC=/work/main/scripts/bench-runs/2026-12-05-checkers
mkdir -p $REC
git rev-parse HEAD > $REC/commit.txt
cargo build --release --locked 2>&1 | tail -2
B=$CARGO_TARGET_DIR/release/asalto
T=/work/runs/f16
/usr/bin/time -v $B build --variant assaut --for formation:16 --wdl-only --tables $T --json > $REC/build.json 2> $REC/build.log
echo "build exit $?" >> $REC/exits.txt
for run in sets-1 positions-1 sets-2; do
  c=${run%-*}
  /usr/bin/time -v $B verify --variant assaut --soldiers 9..=16 --tables $T --checker $c --json > $REC/verify-$run.json 2> $REC/verify-$run.log
  echo "verify $run exit $?" >> $REC/exits.txt
done
echo done >> $REC/exits.txt
