#!/bin/sh
# asalto's 10-soldier files of the 20-soldier closure (linked from /work/runs/f20): the report's counting, binary popcount.
rm -rf <ab>/report-popcount.out
exec <ab>/asalto-popcount report --variants asalto --soldiers 10..=10 --allow-missing --tables <ab>/r10 --out <ab>/report-popcount.out >> <ab>/report-popcount.log 2>&1
