#!/bin/bash
# Session 64, right after the bench 2026-12-06-vm (same commit, same
# machine, idle): the f16 closure built WDL-only by the bit-set solver
# and verified by the set checker, for the plan's factors (a real build's
# and a real verify's rate over the level samples' of that bench). Each
# file is compared with the tables of 6bb0179 by its SHA-256 as recorded
# in ../2026-12-06-ab/compare-1.txt (those tables are gone with the
# machine's disk; their hashes are not).
set -u
B=${B:-target/release/asalto}
REC=scripts/bench-runs/2026-12-06-calib
REF=scripts/bench-runs/2026-12-06-ab/compare-1.txt
git rev-parse HEAD > $REC/commit.txt
T=/work/runs/f16-calib
rm -rf $T
/usr/bin/time -v $B build --variant assaut --for formation:16 --wdl-only --tables $T --json > $REC/build.json 2> $REC/build.log
echo "build exit $?"
( cd $T/assaut && for f in *.atb; do
    want=$(awk -v f="$f" '$1 == f { print $3 }' "$OLDPWD/$REF")
    got=$(sha256sum "$f" | cut -c1-16)
    if [ "$want" = "$got" ]; then r=same; else r=DIFFERENT; fi
    echo "$f $(stat -c %s "$f") $want $got $r"
  done ) > $REC/compare.txt
echo "compare exit $?"
/usr/bin/time -v $B verify --variant assaut --soldiers 9..=16 --tables $T --checker sets --json > $REC/verify-all-sets.json 2> $REC/verify-all-sets.log
echo "verify exit $?"
