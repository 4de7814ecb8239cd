#!/bin/sh
# Verify asalto's 1o20s of the 20-soldier closure (a copy; the lower 1o files linked from /work/runs/f20), binary c7ed421.
exec <ab>/asalto-c7ed421 verify --variant asalto --soldiers 20..=20 --tables <ab>/v1 --json >> <ab>/verify-c7ed421.jsonl 2>> <ab>/verify-c7ed421.log
