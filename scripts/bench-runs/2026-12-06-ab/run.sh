#!/bin/bash
# Session 63: the f16 closure built WDL-only and verified (--checker sets)
# by the commit in commit.txt (NEW) and by c8fe174 (BASE, the commit of
# record 2026-12-05-counts, whose times set the plan's factors), in turn
# NEW BASE NEW BASE, the machine otherwise idle: the ratio of the two,
# pair by pair, carries those factors over to NEW whatever speed the
# shared machine has today (a lone run at cf51caf took 15% longer than
# 2026-12-05-counts for both the build and the unchanged verify).
# Each NEW build is compared file by file with the tables of 6bb0179.
set -u
NEW=${NEW:-target/release/asalto}
BASE=${BASE:-/work/run-target/release/asalto}
REC=scripts/bench-runs/2026-12-06-ab
git rev-parse HEAD > $REC/commit.txt
for i in 1 2; do
  for who in new base; do
    if [ $who = new ]; then B=$NEW; else B=$BASE; fi
    T=/work/runs/f16-ab-$who
    rm -rf $T
    /usr/bin/time -v $B build --variant assaut --for formation:16 --wdl-only --tables $T --json > $REC/build-$who-$i.json 2> $REC/build-$who-$i.log
    echo "build $who $i exit $?"
    if [ $who = new ]; then
      ( cd /work/runs/f16-one/assaut && for f in *.atb; do
          if cmp -s "$f" "$T/assaut/$f"; then r=same; else r=DIFFERENT; fi
          echo "$f $(stat -c %s "$f") $(sha256sum "$f" | cut -c1-16) $(sha256sum "$T/assaut/$f" | cut -c1-16) $r"
        done ) > $REC/compare-$i.txt
    fi
  done
done
for i in 1 2; do
  for who in new base; do
    if [ $who = new ]; then B=$NEW; else B=$BASE; fi
    /usr/bin/time -v $B verify --variant assaut --soldiers 9..=16 --tables /work/runs/f16-ab-$who --checker sets --json > $REC/verify-$who-$i.json 2> $REC/verify-$who-$i.log
    echo "verify $who $i exit $?"
  done
done
