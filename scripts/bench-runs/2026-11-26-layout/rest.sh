#!/bin/bash
# The run's other files as the new default writes them (1 thread), after sep.sh.
cd /work/runs/layout
while pgrep -f sep.sh > /dev/null; do sleep 10; done
RAYON_NUM_THREADS=1 /usr/bin/time -v ./asalto-layout repack --tables /work/runs/layout/src-rest --out /work/runs/layout/p18 --wdl-only --json > p18-rest.json 2> p18-rest.log
