#!/bin/bash
# Session 58: the f16 closure rebuilt by the bit-set solver with its one-officer
# bitboard sets (bits::one), compared file by file with the tables of 530775f
# (/work/runs/f16-new, themselves byte for byte those of ebf0531), machine idle.
set -u
B=${B:-target/release/asalto}
REC=scripts/bench-runs/2026-12-05-f16-one
git rev-parse HEAD > $REC/commit.txt
T=/work/runs/f16-one
rm -rf $T
/usr/bin/time -v $B build --variant assaut --for formation:16 --wdl-only --tables $T --json > $REC/build.json 2> $REC/build.log
echo "build exit $?"
( cd /work/runs/f16-new/assaut && for f in *.atb; do
    if cmp -s "$f" "$T/assaut/$f"; then r=same; else r=DIFFERENT; fi
    echo "$f $(stat -c %s "$f") $(sha256sum "$f" | cut -c1-16) $(sha256sum "$T/assaut/$f" | cut -c1-16) $r"
  done ) > $REC/compare.txt
echo "compare exit $?"
