#!/bin/sh
# One build of asalto's 2o20s (the 20-soldier closure's top file, 1,301,573,676 positions) on the other files of /work/runs/f20 (linked), binary 7d6c82d.
rm -f /work/runs/ab/b2/asalto/2o20s.atb /work/runs/ab/b2/asalto/2o20s.atb.*
exec /work/runs/ab/asalto-7d6c82d build --variant asalto --for '3/O1O/SS3SS/SSSSSSS/SSSSSSS/SS1/3 s' --wdl-only --memory 12GiB --tables /work/runs/ab/b2 --json >> /work/runs/ab/build2o-7d6c82d.jsonl 2>> /work/runs/ab/build2o-7d6c82d.log
