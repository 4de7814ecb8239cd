#!/bin/bash
# f18 closure built WDL-only by both engines at one commit, compared file by file.
set -u
cd /work/run-wt
export CARGO_TARGET_DIR=/work/run-target
REC=/work/main/scripts/bench-runs/2026-12-04-f18-engines
mkdir -p $REC
F='3/O1O/SS3SS/SSSSSSS/SSSSSSS/3/3 s'
ENGINE=bits VERIFY=0 ASALTO_TABLES=/work/runs/f18e/bits RECORDS=$REC RECORDS_PREFIX=bits- FOR="$F" scripts/sitting.sh 18 70
echo "bits sitting exit $?"
ENGINE=positions VERIFY=0 ASALTO_TABLES=/work/runs/f18e/positions RECORDS=$REC RECORDS_PREFIX=positions- FOR="$F" scripts/sitting.sh 18 100
echo "positions sitting exit $?"
{
  echo "file by file, cmp of /work/runs/f18e/bits/assaut and /work/runs/f18e/positions/assaut ($(date -u +%FT%TZ), commit $(git rev-parse --short HEAD)):"
  for f in $(cd /work/runs/f18e/positions/assaut && ls *.atb | sort -V); do
    b=/work/runs/f18e/bits/assaut/$f; p=/work/runs/f18e/positions/assaut/$f
    if cmp -s "$b" "$p"; then r=same; else r=DIFFER; fi
    echo "  $f $(stat -c %s "$p") bytes: $r ($(sha256sum < "$p" | cut -c1-16))"
  done
} > $REC/compare.txt
cat $REC/compare.txt
