#!/usr/bin/env bash
# Build 2o13s of the read-back closure on lower WDL-only tables written with
# 2^14-position WDL blocks (blk14) and with 2^18 (blk18), twice each, in turn.
R=/work/main/scripts/bench-runs/2026-11-25-engine
POS='3/O1O/SS3SS/SSSSSSS/2SS3/3/3 s'
for run in 14c 18c 14d 18d; do
  d=/work/runs/blk${run:0:2}
  rm -f $d/assaut/2o13s.atb $d/assaut/2o13s.atb.*
  /usr/bin/time -v /work/runs/asalto-c build --for "$POS" --wdl-only --tables $d --json \
     > $R/blocks-$run.json 2> $R/blocks-$run.log
done
