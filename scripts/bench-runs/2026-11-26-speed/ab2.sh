#!/bin/bash
# Simultaneous paired runs: in each round every binary runs twice at once,
# each process pinned to its own core and the binaries rotated over the
# cores from round to round, so that all see the same machine at the same
# time. Solve of the bench closure (one thread), then a WDL-only verify of
# its tables (one thread, each process on its own copy).
cd "$(dirname "$0")"
P='S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s'
B=(${BINS:-base code final})
{ echo "machine: $(nproc) cpus"; lscpu | grep -E "Model name|Thread|Core|Socket|NUMA node0"; lscpu -e | head -20; date -u; } > $OUT/ab2.txt
./base build --for "$P" --wdl-only --tables /tmp/w --threads 16 > /dev/null 2>&1 || echo "build failed" >> $OUT/ab2.txt
ROUNDS=${ROUNDS:-6}
for r in $(seq 1 $ROUNDS); do
  for what in solve verify; do
    n=0
    for rep in 0 1; do
      for j in "${!B[@]}"; do
        b=${B[$j]}
        core=$(( (n + r) % (2 * ${#B[@]}) ))
        if [ $what = solve ]; then
          taskset -c $core /usr/bin/time -f "round $r $what $b core $core user %U wall %e" -o /tmp/t-$r-$what-$b-$rep ./$b solve --threads 1 "$P" > /dev/null &
        else
          rm -rf /tmp/w-$b-$rep; cp -r /tmp/w /tmp/w-$b-$rep
          taskset -c $core /usr/bin/time -f "round $r $what $b core $core user %U wall %e" -o /tmp/t-$r-$what-$b-$rep ./$b verify --tables /tmp/w-$b-$rep --threads 1 > /tmp/v-$b-$rep.txt 2>&1 &
        fi
        n=$((n + 1))
      done
    done
    wait
    cat /tmp/t-$r-$what-* >> $OUT/ab2.txt
  done
done
for f in /tmp/v-*.txt; do echo "$f: $(tail -n 1 $f)"; done >> $OUT/ab2.txt
python3 - "$OUT/ab2.txt" <<'PY' >> $OUT/ab2.txt
import sys, re, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("round ")]
for what in ("solve", "verify"):
    by = {}
    for r in rows:
        if r[2] == what:
            by.setdefault((int(r[1]), r[3]), []).append(float(r[7]))
    names = sorted({k[1] for k in by})
    for b in names:
        if b == "base": continue
        ratios = [st.mean(by[(rd, b)]) / st.mean(by[(rd, "base")]) for (rd, n) in by if n == b and (rd, "base") in by]
        print(f"{what} {b}/base user-time ratio per round: " + " ".join(f"{x:.3f}" for x in ratios) + f"  median {st.median(ratios):.3f}")
PY
tail -n 4 $OUT/ab2.txt
