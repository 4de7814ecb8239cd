#!/bin/sh
# One build of asalto's 1o19s (the 20-soldier closure's file) on the lower files of /work/runs/f20 (linked), binary 2118951.
rm -f /work/runs/ab/tables/asalto/1o19s.atb /work/runs/ab/tables/asalto/1o19s.atb.*
exec /work/runs/ab/asalto-2118951 build --variant asalto --for '3/O1O/SS3SS/SSSSSSS/SSSSSSS/SS1/3 s' --wdl-only --memory 12GiB --tables /work/runs/ab/tables --json >> /work/runs/ab/2118951.jsonl 2>> /work/runs/ab/2118951.log
