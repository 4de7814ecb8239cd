#!/bin/bash
# cache-exp/run.sh ORDER...: build assault 2o20s (closure of the 20-soldier formation) from the
# f20 run's lower files, once per argument: A = default block cache, B = --block-cache 9GiB.
set -u
D=<ab>/cache-exp; S=$D/tables; BIN=$D/asalto
F='3/O1O/SS3SS/SSSSSSS/SSSSSSS/SS1/3 s'
rm -rf $S; mkdir -p $S/assault
for f in /work/runs/f20/tables/assault/*.atb; do b=$(basename $f); [ $b = 2o20s.atb ] || ln -s $f $S/assault/$b; done
i=0
for x in "$@"; do
  i=$((i+1))
  rm -f $S/assault/2o20s.atb*
  case $x in A) extra=();; B) extra=(--block-cache 9GiB);; esac
  echo "== run $i $x $(date -u +%T)"
  /usr/bin/time -v -o $D/$i-$x.time $BIN build --variant assault --for "$F" --wdl-only --tables $S --threads 0 --memory 12GiB "${extra[@]}" --json > $D/$i-$x.json 2> $D/$i-$x.log
  echo "exit $? $(date -u +%T)"
  cmp $S/assault/2o20s.atb /work/runs/f20/tables/assault/2o20s.atb && echo "same bytes as the run's 2o20s"
done
