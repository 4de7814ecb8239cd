#!/bin/sh
# Verify asalto's 1o20s of the 20-soldier closure (a copy; the lower 1o files linked from /work/runs/f20), binary dirsearch.
exec <ab>/asalto-dirsearch verify --variant asalto --soldiers 20..=20 --tables <ab>/v1 --json >> <ab>/verify-dirsearch.jsonl 2>> <ab>/verify-dirsearch.log
