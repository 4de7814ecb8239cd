#!/bin/bash
# Session 58: the set checker with its one-officer sets (setcheck::lone) on the
# tables of assaut's 16-soldier closure built by 530775f (/work/runs/f16-new,
# byte for byte those of ebf0531: scripts/bench-runs/2026-12-05-f16-new/compare.txt),
# the machine otherwise idle.
#
# verify-sets.json / verify-positions.json (files of 12..16 soldiers, at 911555e with a
# test-only switch that kept one-officer files on the set checker; --checker positions as is):
#   asalto verify --variant assaut --soldiers 12..=16 --tables /work/runs/f16-new --checker sets --json
#   asalto verify --variant assaut --soldiers 12..=16 --tables /work/runs/f16-new --checker positions --json
# verify-all-sets.json (every file, at the commit in commit.txt, where --checker sets keeps
# one-officer files on the set checker): the plan's VERIFY_OVER_SAMPLE.
set -u
B=${B:-target/release/asalto}
REC=scripts/bench-runs/2026-12-05-lone
git rev-parse HEAD > $REC/commit.txt
/usr/bin/time -v $B verify --variant assaut --soldiers 9..=16 --tables /work/runs/f16-new --checker sets --json > $REC/verify-all-sets.json 2> $REC/verify-all-sets.log
echo "verify exit $?"
