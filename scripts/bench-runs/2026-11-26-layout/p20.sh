#!/bin/bash
# 2^20-position WDL blocks, placement-major, on 1o11s (1 thread), after rest.sh.
cd /work/runs/layout
while pgrep -f "rest.sh|sep.sh" > /dev/null; do sleep 10; done
RAYON_NUM_THREADS=1 /usr/bin/time -v ./asalto-layout repack --tables /work/runs/layout/src11 --out /work/runs/layout/p20 --soldiers 11..=11 --wdl-only --wdl-block 1048576 --json > p20.json 2> p20.log
