#!/bin/bash
# A/B of the window read-back after a resume, on assault's f20 build as the
# queue left it (a checkpoint): the same build command as sitting.sh runs,
# stopping after its first chunk (--stop-after 50s), old binary then new.
# Each run is real progress of the build (one chunk, a new checkpoint).
set -u
T=/work/runs/f20/tables
FOR='3/O1O/SS3SS/SSSSSSS/SSSSSSS/SS1/3 s'
for b in c7ed421 reload; do
  date -u +"$b start %H:%M:%S"
  /usr/bin/time -v /work/runs/ab/asalto-$b build --variant assault --for "$FOR" --wdl-only \
    --memory 12GiB --threads 0 --level 9 --stop-after 50s --tables $T --json \
    > /work/runs/ab/reload-$b.json 2> /work/runs/ab/reload-$b.log
  echo "$b exit $?"
  date -u +"$b end %H:%M:%S"
done
