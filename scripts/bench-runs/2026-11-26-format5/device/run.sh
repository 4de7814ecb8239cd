#!/bin/bash
# Read-back cost of 2^20-position WDL blocks against 2^18 in the lower
# tables of a WDL-only build (format 5 binary). The read-back closure's
# lower WDL-only tables (9..=12 and 1o13s, format 3, 2^18 mask-major) are
# repacked placement-major with 2^18 and with 2^20 blocks; then 2o13s of
# the closure is built on each, the two builds simultaneously, each pinned
# to its own 2 cores (--threads 2), the sides swapped each round.
set -u
A=target/ab5
B=$A/asalto
POS='3/O1O/SS3SS/SSSSSSS/2SS3/3/3 s'
nproc; lscpu | grep "Model name"
for b in 18 20; do
  $B repack --tables $A/lower --out $A/p$b --wdl-only --wdl-block $((1<<b)) --order placement --json > $OUT/repack-p$b.json
done
ls -l $A/p18/assaut $A/p20/assaut > $OUT/sizes.txt
for r in 1 2 3 4 5 6; do
  if [ $((r % 2)) -eq 1 ]; then ca=0-1; cb=2-3; else ca=2-3; cb=0-1; fi
  for b in 18 20; do rm -f $A/p$b/assaut/2o13s.atb*; done
  taskset -c $ca /usr/bin/time -v $B build --for "$POS" --wdl-only --threads 2 --tables $A/p18 --json > $OUT/p18-$r.json 2> $OUT/p18-$r.log &
  taskset -c $cb /usr/bin/time -v $B build --for "$POS" --wdl-only --threads 2 --tables $A/p20 --json > $OUT/p20-$r.json 2> $OUT/p20-$r.log &
  wait
  cmp $A/p18/assaut/2o13s.atb $A/p20/assaut/2o13s.atb && echo "round $r: the same 2o13s"
  for b in 18 20; do echo "p$b round $r: $(grep -E 'User time|Elapsed' $OUT/p$b-$r.log | tr '\n' ' ')"; done
done
