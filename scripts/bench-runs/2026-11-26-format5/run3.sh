#!/bin/bash
# The 2^20 files of 9..=12 but 2o12s (format 4, out-rest) rewritten in format 5 by the new binary (1 thread): same blocks, 8-byte directory entries.
cd /work/runs/p20
while pgrep -f run2.sh > /dev/null; do sleep 5; done
RAYON_NUM_THREADS=1 /usr/bin/time -v ./asalto-f5 repack --tables out-rest --out out-f5 --wdl-only --json > f5-rest.json 2> f5-rest.log
