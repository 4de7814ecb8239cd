#!/bin/bash
# One run of the complete WDL-only assaut build to 12 soldiers (issue #15).
# usage: run.sh RUN_NUMBER STOP_AFTER     e.g. run.sh 1 70m
# Each run stops by itself at a checkpoint after STOP_AFTER (exit 75) and the
# next run goes on; build-N.json is each run's summary (bench --build-summary).
cd /work/runs/t12
N=$1; STOP=$2
BIN=/work/runs/asalto-698e1c1
/usr/bin/time -v -o time-v-$N.txt $BIN build --variant assaut --soldiers 9..=12 --wdl-only \
  --memory 12GiB --threads 2 --stop-after "$STOP" --tables /work/runs/t12/tables --json \
  > build-$N.json 2> build-$N.log
echo "exit $?" >> build-$N.log
