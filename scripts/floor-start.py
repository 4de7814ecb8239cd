#!/usr/bin/env python3
"""What the files above a floor prove of the start: the start (officers on
c6 and e6) and each of the 36 placements of the two officers in the
fortress, from `asalto query --floor K --json` on the floor folders there.

    scripts/floor-start.py TABLES K [--variant V] [--assume SIDE] [--asalto BIN] [--out DIR]

    scripts/floor-start.py /work/runs/floor22 22 --variant assaut --out scripts/bench-runs/2026-12-02-floor22

TABLES is the tables folder holding floor-K-officers/ and/or
floor-K-soldiers/ (`asalto build --floor K --assume SIDE --tables TABLES`);
every floor folder of K there is read (the query refuses when neither is),
or with --assume that side's alone (while the other is being built, say).
Printed: one line a placement, the start first: what each floor proves
and the bracket, from the soldiers' side. With --out, DIR/<variant>-start.json
(the start's query object, as `asalto query --floor K --json start`
prints it) and DIR/<variant>-placements.csv (with --assume,
<variant>-<side>-start.json and -placements.csv) (placement, each floor's
proof, the bracket's lower and upper bound, decided) are written.
The binary is target/release/asalto unless --asalto says otherwise.
Needs only Python 3.
"""

import argparse
import csv
import itertools
import json
import pathlib
import subprocess
import sys

FORTRESS = ["c7", "d7", "e7", "c6", "d6", "e6", "c5", "d5", "e5"]


def query(binary, tables, k, variant, assume, position):
    """The JSON of `asalto query --floor K [--assume SIDE]` of one position."""
    side = ["--assume", assume] if assume else []
    out = subprocess.run(
        [binary, "query", "--floor", str(k), *side, "--tables", tables, "--variant", variant, "--json", position],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"error: asalto query {position}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tables")
    ap.add_argument("k", type=int)
    ap.add_argument("--variant", default="assaut")
    ap.add_argument("--assume", choices=["officers", "soldiers"])
    ap.add_argument("--asalto", default="target/release/asalto")
    ap.add_argument("--out")
    a = ap.parse_args()
    if not 10 <= a.k <= 24:
        sys.exit(f"error: a floor of {a.k} soldiers: it must be 10 to 24")
    rows = []
    start = None
    placements = ["start"] + [f"start:{p},{q}" for p, q in itertools.combinations(FORTRESS, 2)]
    for pos in placements:
        q = query(a.asalto, a.tables, a.k, a.variant, a.assume, pos)
        if pos == "start":
            start = q
        proves = {f["assume"]: f["proves"] for f in q["floors"]}
        b = q["bracket"]
        rows.append(
            {
                "placement": pos,
                "officers_floor": proves.get("officers", ""),
                "soldiers_floor": proves.get("soldiers", ""),
                "lower": b["lower"],
                "upper": b["upper"],
                "decided": b["decided"],
            }
        )
        print(
            f"{pos:<14} officers' floor: {proves.get('officers', '-'):<28} "
            f"soldiers' floor: {proves.get('soldiers', '-'):<28} bracket: {b['words']}"
        )
    decided = sum(r["decided"] for r in rows[1:])
    wins = sum(r["lower"] == "soldiers win" for r in rows[1:])
    print(f"placements decided: {decided} of 36; soldiers' wins proved: {wins} of 36")
    if a.out:
        out = pathlib.Path(a.out)
        out.mkdir(parents=True, exist_ok=True)
        stem = f"{a.variant}-{a.assume}" if a.assume else a.variant
        (out / f"{stem}-start.json").write_text(json.dumps(start, indent=1) + "\n")
        with open(out / f"{stem}-placements.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
