#!/usr/bin/env bash
# Read-back A/B: the same WDL-only build with its window in memory and read back from disk.
set -u
R=/work/main/scripts/bench-runs/2026-11-25-engine
POS='3/O1O/SS3SS/SSSSSSS/2SS3/3/3 s'
for run in disk disk2; do
  rm -rf /work/runs/rb-$run
  extra=""
  case $run in disk*) extra="--window-bytes 1";; esac
  /usr/bin/time -v /work/runs/asalto-b3 build --for "$POS" --wdl-only --tables /work/runs/rb-$run --json $extra \
     > $R/readback-$run.json 2> $R/readback-$run.log
done
cmp /work/runs/rb-memory/assaut/2o13s.atb /work/runs/rb-disk/assaut/2o13s.atb && echo "same bytes" > $R/readback-cmp.txt || echo "DIFFERENT" > $R/readback-cmp.txt
