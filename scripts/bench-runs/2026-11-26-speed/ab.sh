#!/bin/bash
# Speed A/B of asalto builds on an idle machine: every build writes the same
# table files; paired interleaved solves of the bench closure (one thread);
# then `asalto bench` per binary.
cd "$(dirname "$0")"
P='S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s'
B="${BINS:-base code split pgo}"
{ echo "machine: $(nproc) cores, $(lscpu | grep 'Model name' | sed 's/  */ /g')"; date -u; } > $OUT/ab.txt
for v in assaut asalto; do
  for b in $B; do
    ./$b build --for "$P" --variant $v --tables /tmp/eq-$v-$b --threads 16 > /dev/null 2>&1 || echo "build $v $b failed" >> $OUT/ab.txt
    if [ $b != base ]; then
      diff -r -q /tmp/eq-$v-base /tmp/eq-$v-$b >> $OUT/ab.txt 2>&1 && echo "files $v $b: same bytes as base" >> $OUT/ab.txt
    fi
  done
done
for r in 1 2 3 4 5 6 7; do
  for b in $B; do
    s=$( { /usr/bin/time -f "%U %e" ./$b solve --threads 1 "$P" > /dev/null; } 2>&1 | tail -1)
    echo "round $r $b user_wall $s" >> $OUT/ab.txt
  done
done
for b in $B; do
  mkdir -p $OUT/bench-$b
  ./$b bench --tables /nonexistent --rate-runs 3 --out $OUT/bench-$b > /tmp/bench-$b.log 2>&1; echo "== bench $b: exit $?" >> $OUT/ab.txt; grep -E "rate|verif|speedup" /tmp/bench-$b.log >> $OUT/ab.txt
done
tail -c 3000 $OUT/ab.txt
