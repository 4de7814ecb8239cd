#!/bin/sh
# Verify asalto's 1o20s of the 20-soldier closure (a copy; the lower 1o files linked from /work/runs/f20), binary 80c6a5a.
exec /work/runs/ab/asalto-80c6a5a verify --variant asalto --soldiers 20..=20 --tables /work/runs/ab/v1 --json >> /work/runs/ab/verify-80c6a5a.jsonl 2>> /work/runs/ab/verify-80c6a5a.log
