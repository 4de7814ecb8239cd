#!/bin/bash
# Verify 1o11s as repacked placement-major (its lower files too), 1 thread, after p20.sh.
cd /work/runs/layout
while pgrep -f "rest.sh|sep.sh|p20.sh" > /dev/null; do sleep 10; done
/usr/bin/time -v ./asalto-layout verify --tables /work/runs/layout/ver --soldiers 11..=11 --threads 1 --json > ver.json 2> ver.log
