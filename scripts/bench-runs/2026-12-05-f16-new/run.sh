#!/bin/bash
# Session 57: the bench of the new engines, then the f16 closure rebuilt by the new
# bit-set solver (compared file by file with the tables of ebf0531), then verified by sets.
set -u
cd /work/run-wt
export CARGO_TARGET_DIR=/work/run-target
cargo build --release --locked 2>&1 | tail -1
B=$CARGO_TARGET_DIR/release/asalto
mkdir -p /work/runs/bench-out
$B bench --build-to 9 --out /work/runs/bench-out > /work/runs/bench-console-s57.txt 2>&1
echo "bench exit $?" >> /work/runs/s57-exits.txt
REC=/work/main/scripts/bench-runs/2026-12-05-f16-new
mkdir -p $REC
git rev-parse HEAD > $REC/commit.txt
T=/work/runs/f16-new
rm -rf $T
/usr/bin/time -v $B build --variant assaut --for formation:16 --wdl-only --tables $T --json > $REC/build.json 2> $REC/build.log
echo "build exit $?" >> /work/runs/s57-exits.txt
( cd /work/runs/f16/assaut && for f in *.atb; do
    if cmp -s "$f" "$T/assaut/$f"; then r=same; else r=DIFFERENT; fi
    echo "$f $(stat -c %s "$f") $(sha256sum "$f" | cut -c1-16) $(sha256sum "$T/assaut/$f" | cut -c1-16) $r"
  done ) > $REC/compare.txt
echo "compare exit $?" >> /work/runs/s57-exits.txt
/usr/bin/time -v $B verify --variant assaut --soldiers 9..=16 --tables $T --checker sets --json > $REC/verify-sets.json 2> $REC/verify-sets.log
echo "verify exit $?" >> /work/runs/s57-exits.txt
echo done >> /work/runs/s57-exits.txt
