#!/bin/bash
# Session 66: the rows prototype (src/solve/bits/rows.rs at c69bf04)
# against the bit-set solver, on the same level samples, both in one
# release lib test binary (`cargo test --release --lib --no-run`, path in
# TBIN), run at the same time, one on each core (taskset), swapped every
# round so that both see the same host.
#   bits: solve::bits::profile::bit_set_solver_on_a_level_sample (the
#         synthetic store in index order, as a build's window hands tiers
#         over);
#   rows: solve::bits::rows::profile::rows_on_a_level_sample (the same
#         store placement-major, with every two-officer tier also as rows:
#         the soldier steps from outside and the captures read whole rows,
#         an optimistic store: a real build would have to make the rows of
#         the lower files from their table files).
# Each harness checks its values against the bit-set solver's after its
# passes; the rows harness also counts its capture walks (forms).
set -u
REC=scripts/bench-runs/2026-12-06-rows
run() { # harness cpu k
  ASALTO_PROFILE_SOLDIERS=$3 ASALTO_PROFILE_PASSES=10 taskset -c $2 $TBIN --ignored --exact "$1" \
    --nocapture 2>&1 | grep -E 'positions/s|capture walks|panicked' | sed 's/^test .* \.\.\. //'
}
B=solve::bits::profile::bit_set_solver_on_a_level_sample
R=solve::bits::rows::profile::rows_on_a_level_sample
{
  uname -a; grep -m1 "model name" /proc/cpuinfo; date -u
  for k in 15 18 21; do for i in 1 2; do
    run $B 0 $k > /tmp/rows-a & run $R 1 $k > /tmp/rows-b; wait
    echo "k=$k bits(cpu0) $(head -1 /tmp/rows-a) rows(cpu1) $(cat /tmp/rows-b | tr '\n' ' ')"
    run $R 0 $k > /tmp/rows-b & run $B 1 $k > /tmp/rows-a; wait
    echo "k=$k rows(cpu0) $(cat /tmp/rows-b | tr '\n' ' ') bits(cpu1) $(head -1 /tmp/rows-a)"
  done; done
  date -u
} 2>&1 | tee $REC/output.txt
