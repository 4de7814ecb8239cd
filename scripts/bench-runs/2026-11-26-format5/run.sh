#!/bin/bash
# 2o12s of the whole game's run rewritten with other WDL block sizes / zstd levels (1 thread, niced).
cd /work/runs/p20
for spec in "1048576 9" "4194304 9" "1048576 15"; do
  set -- $spec
  out=out-b$1-l$2
  RAYON_NUM_THREADS=1 /usr/bin/time -v ./asalto-686a9e3 repack --tables src --out $out --soldiers 12..=12 --wdl-only --wdl-block $1 --level $2 --json > b$1-l$2.json 2> b$1-l$2.log
  ls -l $out/assaut/2o12s.atb >> sizes.txt
  rm -f $out/assaut/2o12s.atb
done
