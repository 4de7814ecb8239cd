#!/bin/bash
# The two changes apart, on 1o11s of the whole game's run (1 thread).
cd /work/runs/layout
for cfg in "m18 --order mask --wdl-block 262144" "p14 --order placement --wdl-block 16384"; do
  set -- $cfg
  name=$1; shift
  RAYON_NUM_THREADS=1 /usr/bin/time -v ./asalto-layout repack --tables /work/runs/layout/src11 --out /work/runs/layout/$name --soldiers 11..=11 --wdl-only "$@" --json > $name.json 2> $name.log
done
