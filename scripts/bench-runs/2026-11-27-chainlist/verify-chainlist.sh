#!/bin/sh
# Verify asalto's 1o20s of the 20-soldier closure (a copy; the lower 1o files linked from /work/runs/f20), binary chainlist.
exec /work/runs/ab/asalto-chainlist verify --variant asalto --soldiers 20..=20 --tables /work/runs/ab/v1 --json >> /work/runs/ab/verify-chainlist.jsonl 2>> /work/runs/ab/verify-chainlist.log
