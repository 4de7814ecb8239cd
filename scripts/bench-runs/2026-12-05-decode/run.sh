#!/bin/bash
# Session 60: the f16 closure's tables built at 1418ca2 (record 2026-12-05-sort,
# /work/runs/f16-sort) verified by the set checker at the commit in commit.txt
# (a placement-major target tier decoded 32 slices at a time), machine idle.
set -u
B=${B:-target/release/asalto}
REC=scripts/bench-runs/2026-12-05-decode
git rev-parse HEAD > $REC/commit.txt
/usr/bin/time -v $B verify --variant assaut --soldiers 9..=16 --tables /work/runs/f16-sort --checker sets --json > $REC/verify-all-sets.json 2> $REC/verify-all-sets.log
echo "verify exit $?"
