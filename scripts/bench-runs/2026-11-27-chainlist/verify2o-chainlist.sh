#!/bin/sh
# Verify asalto's 2o12s of the 20-soldier closure for about 60 s (links to /work/runs/f20; 1o12s skipped by its complete record), binary chainlist; the rate is in the JSON.
rm -f /work/runs/ab/v3/asalto/2o12s.atb.verify
exec /work/runs/ab/asalto-chainlist verify --variant asalto --soldiers 12..=12 --tables /work/runs/ab/v3 --resume --stop-after 60s --json >> /work/runs/ab/verify2o-chainlist.jsonl 2>> /work/runs/ab/verify2o-chainlist.log
