#!/bin/bash
# Session 62, later: the f16 closure rebuilt WDL-only by the bit-set solver
# at the commit in commit.txt (after 2026-12-05-masks: the capture duty's
# lookups only among officers that can take more; the table writer's
# counts and the value fields with no branch on a value), compared file by
# file with the tables of 6bb0179 (/work/runs/f16-one, record
# 2026-12-05-f16-one), then verified by the set checker, machine idle.
set -u
B=${B:-target/release/asalto}
REC=scripts/bench-runs/2026-12-05-counts
git rev-parse HEAD > $REC/commit.txt
T=/work/runs/f16-counts
rm -rf $T
/usr/bin/time -v $B build --variant assaut --for formation:16 --wdl-only --tables $T --json > $REC/build.json 2> $REC/build.log
echo "build exit $?"
( cd /work/runs/f16-one/assaut && for f in *.atb; do
    if cmp -s "$f" "$T/assaut/$f"; then r=same; else r=DIFFERENT; fi
    echo "$f $(stat -c %s "$f") $(sha256sum "$f" | cut -c1-16) $(sha256sum "$T/assaut/$f" | cut -c1-16) $r"
  done ) > $REC/compare.txt
echo "compare exit $?"
/usr/bin/time -v $B verify --variant assaut --soldiers 9..=16 --tables $T --checker sets --json > $REC/verify-all-sets.json 2> $REC/verify-all-sets.log
echo "verify exit $?"
