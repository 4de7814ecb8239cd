#!/bin/sh
# asalto's 10-soldier files of the 20-soldier closure (linked from /work/runs/f20): the report's counting, binary c7ed421.
rm -rf <ab>/report-c7ed421.out
exec <ab>/asalto-c7ed421 report --variants asalto --soldiers 10..=10 --allow-missing --tables <ab>/r10 --out <ab>/report-c7ed421.out >> <ab>/report-c7ed421.log 2>&1
