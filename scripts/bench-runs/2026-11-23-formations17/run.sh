#!/usr/bin/env bash
# Formation-17 closures, one preset after another, each with its own record.
B=/work/runs/asalto-4350ba3
P='3/O1O/SS3SS/SSSSSSS/SSSSSS1/3/3 s'
cd /work/runs/f17
for v in assaut assault asalto assaut-mdj; do
  if grep -q "^exit 0" $v.log 2>/dev/null; then continue; fi
  {
    echo "command: asalto build --variant $v --for '$P' --memory 12GiB --threads 2 --json --tables /work/runs/ftables"
    echo "commit: 4350ba3"
    echo "start: $(date -u +%FT%TZ)"
  } >> $v.provenance.txt
  /usr/bin/time -v $B build --variant $v --for "$P" --memory 12GiB --threads 2 --json --tables /work/runs/ftables > $v.build.json 2> $v.log
  echo "exit $?" >> $v.log
  echo "end: $(date -u +%FT%TZ)" >> $v.provenance.txt
done
