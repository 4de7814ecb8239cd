#!/bin/sh
# Verify assaut-mdj's 2o12s of the 20-soldier closure for about 60 s (links to /work/runs/f20), binary chains; the rate is in the JSON.
rm -f <ab>/mdj12/assaut-mdj/2o12s.atb.verify
exec <ab>/asalto-chains verify --variant assaut-mdj --soldiers 12..=12 --tables <ab>/mdj12 --resume --stop-after 60s --json >> <ab>/v12-chains.jsonl 2>> <ab>/v12-chains.log
