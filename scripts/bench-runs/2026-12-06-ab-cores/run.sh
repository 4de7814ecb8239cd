#!/bin/bash
# Session 65: A/B of two binaries run at the same time, one on each of the
# two cores (taskset), swapped every round, so that both see the same
# host: on this shared machine two runs of one binary minutes apart
# differ by up to 20%, and alternating runs gave this session two false
# gains of 8-12%. A = 79e0924 (before), B = eab18c1 (the solver's spread
# by pdep where the CPU has BMI2); the sources at ed61bb9 are eab18c1's.
#   OLD, NEW: `asalto` binaries; TOLD, TNEW: the release lib test
#   binaries (`cargo test --release --lib --no-run`) of the same commits.
# Level samples: the bit-set solver's profile harness (positions/s, one
# thread). Rebuilds: 2o16s of the f16 closure (tables of 2026-12-06-calib,
# copied twice) on one thread, its seconds from `build --json`, each
# file compared with the reference copy.
set -u
REC=scripts/bench-runs/2026-12-06-ab-cores
sample() { # bin cpu k
  ASALTO_PROFILE_SOLDIERS=$3 ASALTO_PROFILE_PASSES=3 taskset -c $2 $1 --ignored --exact \
    solve::bits::profile::bit_set_solver_on_a_level_sample --nocapture 2>&1 |
    grep -o '[0-9.]*e[0-9]* positions' | cut -d' ' -f1
}
rebuild() { # bin cpu dir
  rm -f $3/assaut/2o16s.atb
  taskset -c $2 $1 build --variant assaut --for formation:16 --wdl-only --tables $3 --threads 1 --json 2>/dev/null |
    python3 -c "import json,sys;d=json.load(sys.stdin);print([x['seconds'] for x in d['builds'][0]['files'] if x['file']=='2o16s'][0])"
  cmp -s $3/assaut/2o16s.atb /work/runs/f16-calib/assaut/2o16s.atb || echo "DIFFERENT $3" >&2
}
pair() { # fn label; the arguments of fn from OLD_ARGS_0, NEW_ARGS_1, NEW_ARGS_0, OLD_ARGS_1 (binary, cpu, ...)
  local f=$1
  $f $OLD_ARGS_0 > /tmp/abc-a & $f $NEW_ARGS_1 > /tmp/abc-b; wait
  echo "$2 A(cpu0) $(cat /tmp/abc-a) B(cpu1) $(cat /tmp/abc-b)"
  $f $NEW_ARGS_0 > /tmp/abc-b & $f $OLD_ARGS_1 > /tmp/abc-a; wait
  echo "$2 B(cpu0) $(cat /tmp/abc-b) A(cpu1) $(cat /tmp/abc-a)"
}
{
  uname -a; grep -m1 "model name" /proc/cpuinfo; date -u
  for k in 15 21; do for i in 1 2 3; do
    OLD_ARGS_0="$TOLD 0 $k" NEW_ARGS_1="$TNEW 1 $k" NEW_ARGS_0="$TNEW 0 $k" OLD_ARGS_1="$TOLD 1 $k" pair sample "sample k=$k"
  done; done
  for d in /work/runs/abc-a /work/runs/abc-b; do rm -rf $d; cp -r /work/runs/f16-calib $d; done
  for i in 1 2 3; do
    OLD_ARGS_0="$OLD 0 /work/runs/abc-a" NEW_ARGS_1="$NEW 1 /work/runs/abc-b" NEW_ARGS_0="$NEW 0 /work/runs/abc-b" OLD_ARGS_1="$OLD 1 /work/runs/abc-a" pair rebuild "2o16s seconds"
  done
  date -u
} 2>&1 | tee $REC/output.txt
