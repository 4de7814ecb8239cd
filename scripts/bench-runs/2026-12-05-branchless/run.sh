#!/bin/bash
# Session 62: the set checker at the commit in commit.txt (a capture row's
# values read as class bits and gathered as row masks; the compare's quick
# path with no branch on a value) verifying the f16 closure built at d75b53f
# (/work/runs/f16-states, record 2026-12-05-states: 16 files byte for byte
# those of 6bb0179; the solver has not changed since), machine idle. The
# files are compared with /work/runs/f16-one again first.
set -u
B=${B:-target/release/asalto}
REC=scripts/bench-runs/2026-12-05-branchless
git rev-parse HEAD > $REC/commit.txt
T=/work/runs/f16-states
( cd /work/runs/f16-one/assaut && for f in *.atb; do
    if cmp -s "$f" "$T/assaut/$f"; then r=same; else r=DIFFERENT; fi
    echo "$f $(stat -c %s "$f") $(sha256sum "$f" | cut -c1-16) $(sha256sum "$T/assaut/$f" | cut -c1-16) $r"
  done ) > $REC/compare.txt
echo "compare exit $?"
/usr/bin/time -v $B verify --variant assaut --soldiers 9..=16 --tables $T --checker sets --json > $REC/verify-all-sets.json 2> $REC/verify-all-sets.log
echo "verify exit $?"
