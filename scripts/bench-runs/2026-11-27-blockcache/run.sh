#!/bin/bash
# One measured run: build assault's 2o18s of the f20 closure again, from its
# start, in a scratch folder whose other 23 files are links to the run's,
# for STOP seconds; $1 = label, rest = extra build arguments.
set -u
label=$1; shift
S=/work/runs/bc/tables
rm -rf $S; mkdir -p $S/assault
for f in /work/runs/f20/tables/assault/*.atb; do
  [ "$(basename $f)" = 2o18s.atb ] || ln -s $f $S/assault/
done
/usr/bin/time -v /work/runs/asalto-blockcache build --variant assault \
  --for '3/O1O/SS3SS/SSSSSSS/SSSSSSS/SS1/3 s' --wdl-only --memory 12GiB \
  --stop-after ${STOP:-150}s --json --tables $S "$@" \
  > /work/runs/bc/$label.json 2> /work/runs/bc/$label.log
echo "exit $?" >> /work/runs/bc/$label.log
/usr/bin/python3 -c "
import json;d=json.load(open('/work/runs/bc/$label.json'))['stopped']
print('$label', d['positions_done'], round(d['seconds'],1), '%.3e'%(d['positions_done']/d['seconds']), d['block_cache_bytes'], d['wdl_blocks_read'], d['wdl_blocks_decompressed'])
" | tee -a /work/runs/bc/results.txt
