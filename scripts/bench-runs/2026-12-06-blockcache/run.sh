#!/bin/bash
# Session 64: does the cache of the lower files' decompressed blocks hold
# where a file's lower files are larger than the cache, as in the whole
# game (4 GiB against 35-40 GB decompressed below 2o15s-2o17s)? The
# complete assaut files to 10 soldiers (built here, or left by an earlier
# run in $T), then 2o11s (its lower 2o10s: 23.5e9 positions, 5.9 GB of
# two-bit fields) started from nothing for 60 s on one thread, the
# machine otherwise idle, with the default cache (4 GiB), 256 MiB and
# 64 MiB, twice each in turn; each run's --json (the stopped file's
# positions done, seconds, blocks read and decompressed).
set -u
B=${B:-target/release/asalto}
REC=scripts/bench-runs/2026-12-06-blockcache
T=${T:-/work/runs/c10}
git rev-parse HEAD > $REC/commit.txt
$B build --variant assaut --soldiers 9..=10 --wdl-only --tables $T --json > $REC/build-9-10.json 2> $REC/build-9-10.log
echo "build 9..=10 exit $?"
# 1o11s whole (about 2 min), then stop early in 2o11s.
until [ -f $T/assaut/1o11s.atb ]; do
  $B build --variant assaut --soldiers 11..=11 --wdl-only --tables $T --stop-after 150s --json > $REC/build-1o11s.json 2>> $REC/build-1o11s.log
  echo "build 1o11s exit $?"
done
for i in 1 2; do
  for c in 4GiB 256MiB 64MiB; do
    rm -f $T/assaut/2o11s.atb.tmp $T/assaut/2o11s.atb.ckpt
    $B build --variant assaut --soldiers 11..=11 --wdl-only --tables $T --stop-after 60s --threads 1 --block-cache $c --json > $REC/2o11s-$c-$i.json 2> $REC/2o11s-$c-$i.log
    echo "2o11s $c $i exit $?"
  done
done
