#!/bin/bash
# After 2o12s at 2^20: every other file of 9..=12 at 2^20 (level 9), then 1o12s at 2^20 with levels 12 and 15 and at 2^22 level 9 (1 thread each).
cd /work/runs/p20
while pgrep -f "repack --tables src --out out-b1048576-l9 --soldiers 12..=12" > /dev/null; do sleep 5; done
ls -l out-b1048576-l9/assaut/2o12s.atb >> sizes.txt
RAYON_NUM_THREADS=1 /usr/bin/time -v ./asalto-686a9e3 repack --tables src --out out-rest --soldiers 9..=12 --wdl-only --wdl-block 1048576 --level 9 --json > rest-b1048576-l9.json 2> rest-b1048576-l9.log
for spec in "1048576 12" "1048576 15" "4194304 9"; do
  set -- $spec
  out=out12-b$1-l$2
  RAYON_NUM_THREADS=1 /usr/bin/time -v ./asalto-686a9e3 repack --tables src12 --out $out --soldiers 12..=12 --wdl-only --wdl-block $1 --level $2 --json > 1o12s-b$1-l$2.json 2> 1o12s-b$1-l$2.log
  ls -l $out/assaut/1o12s.atb >> sizes.txt
done
