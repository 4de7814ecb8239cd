#!/bin/sh
# Verify asalto's 1o20s of the 20-soldier closure (a copy; the lower 1o files linked from /work/runs/f20), binary 9a93892.
exec /work/runs/ab/asalto-9a93892 verify --variant asalto --soldiers 20..=20 --tables /work/runs/ab/v1 --json >> /work/runs/ab/verify-9a93892.jsonl 2>> /work/runs/ab/verify-9a93892.log
