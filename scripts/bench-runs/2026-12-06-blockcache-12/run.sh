#!/bin/bash
# Session 64, after ../2026-12-06-blockcache/: the same one step up.
# The complete assaut files to 1o12s (those to 2o11s left by that run in
# $T, 2o11s finished here), then 2o12s (its lower 2o11s: 44.8e9
# positions, 11.2 GB of two-bit fields, 2.6 times the default cache)
# started from nothing for 60 s on one thread, the machine otherwise
# idle, with the default cache (4 GiB), 256 MiB and 64 MiB, twice each
# in turn; each run's --json.
set -u
B=${B:-target/release/asalto}
REC=scripts/bench-runs/2026-12-06-blockcache-12
T=${T:-/work/runs/c10}
git rev-parse HEAD > $REC/commit.txt
$B build --variant assaut --soldiers 9..=11 --wdl-only --tables $T --json > $REC/build-9-11.json 2> $REC/build-9-11.log
echo "build 9..=11 exit $?"
# 1o12s whole (two runs of 150 s), then stop early in 2o12s.
until [ -f $T/assaut/1o12s.atb ]; do
  $B build --variant assaut --soldiers 12..=12 --wdl-only --tables $T --stop-after 150s --json > $REC/build-1o12s.json 2>> $REC/build-1o12s.log
  echo "build 1o12s exit $?"
done
for i in 1 2; do
  for c in 4GiB 256MiB 64MiB; do
    rm -f $T/assaut/2o12s.atb.tmp $T/assaut/2o12s.atb.ckpt
    $B build --variant assaut --soldiers 12..=12 --wdl-only --tables $T --stop-after 60s --threads 1 --block-cache $c --json > $REC/2o12s-$c-$i.json 2> $REC/2o12s-$c-$i.log
    echo "2o12s $c $i exit $?"
  done
done
