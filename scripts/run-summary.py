#!/usr/bin/env python3
"""Sum up a long run's records: what each sitting did, each file's figures,
how far the run is and, at the rates it measured, what is left.

    scripts/run-summary.py RECORDS [--prefix P] [--plan PLAN.json] [--json]

    scripts/run-summary.py scripts/bench-runs/2026-11-28-start --plan scripts/bench-runs/2026-11-28-start/plan.json
    scripts/run-summary.py scripts/bench-runs/2026-11-28-f20 --prefix assault-

RECORDS is a folder of the records scripts/sitting.sh copies (RECORDS=):
for each sitting N, N.txt (command, date, commit, each step's exit status
and wall seconds), N-build.json and N-verify.json (`asalto build --json`,
`asalto verify --json`), and where GNU time ran, N-build.time and
N-verify.time (`time -v`). --prefix reads ${P}N.txt ... instead (the
sittings of one queue line among others, e.g. assault-). --plan names the
run's `asalto plan --json` (e.g. plan.json beside the records): with it the
summary counts what is left and estimates its time at the rates measured
(before any verify is measured, the verify's time is the plan's ratio of
verify to build time applied to the build's measured rate).

Printed: one line a sitting; one line a file (its positions, its bytes and
bits per position as built, the build's seconds and peak memory over the
sittings that built it, the verify's seconds over the sittings that checked
it, and whether the last verify record has it whole, or `proved`: whole
by another run's verify record that `verify --proved-by` took up, counted
as verified but not in the verify's rate); then the totals.
Seconds are wall seconds of the step (both cores on one step); a file's
build seconds are those of the run that finished it (its `seconds` plus
the `earlier_seconds` it resumed from), its verify seconds likewise. With
--json one object holding the same figures. Needs only Python 3.
"""

import argparse
import json
import os
import re
import sys


def load_json(path):
    """A step's JSON, or None when the step wrote none (or half of one)."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def file_name(path):
    """`/t/assaut/2o13s.atb` or `2o13s` -> `2o13s`."""
    base = os.path.basename(path)
    return base[:-4] if base.endswith(".atb") else base


def file_order(name):
    """Files in solving order: soldiers, then officers (1o9s, 2o9s, 1o10s)."""
    m = re.fullmatch(r"(\d)o(\d+)s", name)
    return (int(m.group(2)), int(m.group(1))) if m else (99, 9)


def time_v(path):
    """Peak resident memory (bytes) and CPU seconds from a `time -v` file."""
    try:
        text = open(path).read()
    except OSError:
        return None
    out = {}
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if m:
        out["peak_rss_bytes"] = int(m.group(1)) * 1024
    user = re.search(r"User time \(seconds\): ([\d.]+)", text)
    sys_ = re.search(r"System time \(seconds\): ([\d.]+)", text)
    if user and sys_:
        out["cpu_seconds"] = float(user.group(1)) + float(sys_.group(1))
    return out


def stopped(summary):
    """Where a step that stopped with work left stopped (its file, the
    positions done of it and its positions), or None."""
    stop = summary.get("stopped")
    if not stop:
        return None
    return {
        "file": file_name(stop["file"]),
        "positions_done": stop["positions_done"],
        "positions": stop["positions"],
    }


def sitting_txt(path):
    """Command, date, commit and each step's exit status and seconds."""
    out = {"steps": {}}
    for line in open(path):
        line = line.rstrip("\n")
        for key in ("command", "date", "commit"):
            if line.startswith(key + ": "):
                out[key] = line[len(key) + 2 :]
        m = re.fullmatch(r"(build|verify): exit (\d+) after (\d+) s", line)
        if m:
            out["steps"][m.group(1)] = {
                "exit": int(m.group(2)),
                "seconds": int(m.group(3)),
            }
    return out


def summarize(records, prefix, plan):
    numbers = []
    pat = re.compile(re.escape(prefix) + r"(\d+)\.txt")
    for name in os.listdir(records):
        m = pat.fullmatch(name)
        if m:
            numbers.append(int(m.group(1)))
    if not numbers:
        raise SystemExit(f"error: no sitting records ({prefix}N.txt) in {records}")
    numbers.sort()

    files = {}  # name -> figures
    sittings = []
    last_verify = None
    for n in numbers:
        base = os.path.join(records, f"{prefix}{n}")
        s = sitting_txt(base + ".txt")
        s["sitting"] = n
        built, verified, proved = [], [], []
        build = load_json(base + "-build.json")
        if build:
            for b in build.get("builds", []):
                for f in b.get("files", []):
                    if f.get("skipped"):
                        continue
                    name = file_name(f["file"])
                    built.append(name)
                    files.setdefault(name, {}).update(
                        {
                            "positions": f["positions"],
                            "bytes": f.get("bytes"),
                            "bits_per_position": f.get("bits_per_position"),
                            "build_seconds": f["seconds"]
                            + f.get("earlier_seconds", 0.0),
                            "build_peak_rss_bytes": f.get("peak_rss_bytes"),
                            "build_peak_anon_bytes": f.get("peak_anon_bytes"),
                            "built_in_sitting": n,
                        }
                    )
            stop = stopped(build)
            if stop:
                s["build_stopped"] = stop
        verify = load_json(base + "-verify.json")
        if verify:
            last_verify = (n, verify)
            for f in verify.get("per_file", []):
                name = file_name(f["file"])
                if f.get("resumed_positions", 0) >= f["positions"]:
                    # Taken from an earlier record: this folder's own, or
                    # (the first time it shows) another run's verify that
                    # proved the same contents (`verify --proved-by`).
                    seen = files.get(name, {})
                    if f.get("proved_by") and "verified_in_sitting" not in seen:
                        proved.append(name)
                        files.setdefault(name, {}).update(
                            {
                                "positions": f["positions"],
                                "proved_by": f["proved_by"],
                                "verified_in_sitting": n,
                            }
                        )
                    continue
                verified.append(name)
                files.setdefault(name, {}).update(
                    {
                        "positions": f["positions"],
                        "verify_seconds": f["seconds"] + f.get("earlier_seconds", 0.0),
                        "verified_in_sitting": n,
                    }
                )
            stop = stopped(verify)
            if stop:
                s["verify_stopped"] = stop
        for step in ("build", "verify"):
            t = time_v(f"{base}-{step}.time")
            if t and step in s["steps"]:
                s["steps"][step].update(t)
        s["files_built"] = built
        s["files_verified"] = verified
        s["files_proved_by_earlier_records"] = proved
        sittings.append(s)

    # Whole in the last verify record: its per_file entries (a stopped
    # file is in "stopped", not there).
    whole = set()
    if last_verify:
        for f in last_verify[1].get("per_file", []):
            whole.add(file_name(f["file"]))
    for name, f in files.items():
        f["verified"] = name in whole

    built_positions = sum(f["positions"] for f in files.values() if "build_seconds" in f)
    build_seconds = sum(f["build_seconds"] for f in files.values() if "build_seconds" in f)
    # Verified here (with seconds: the rate) or proved by another run's
    # record (no seconds here); both count as done.
    verified_here = sum(
        f["positions"] for f in files.values() if f.get("verified") and "verify_seconds" in f
    )
    proved_positions = sum(
        f["positions"] for f in files.values() if f.get("verified") and "proved_by" in f
    )
    verified_positions = verified_here + proved_positions
    verify_seconds = sum(
        f["verify_seconds"] for f in files.values() if f.get("verified") and "verify_seconds" in f
    )
    # The positions of a stopped step, done so far, count for the rate.
    last = sittings[-1]
    partial_build = last.get("build_stopped", {}).get("positions_done", 0)
    partial_verify = last.get("verify_stopped", {}).get("positions_done", 0)
    total = {
        "sittings": len(sittings),
        "files_built": sum(1 for f in files.values() if "build_seconds" in f),
        "positions_built": built_positions,
        "positions_built_partly": partial_build,
        "files_verified": sum(1 for f in files.values() if f.get("verified")),
        "positions_verified": verified_positions,
        "files_proved_by_earlier_records": sum(
            1 for f in files.values() if f.get("verified") and "proved_by" in f
        ),
        "positions_proved_by_earlier_records": proved_positions,
        "positions_verified_partly": partial_verify,
        "build_seconds_of_files_built": build_seconds,
        "verify_seconds_of_files_verified": verify_seconds,
        "build_positions_per_second": built_positions / build_seconds if build_seconds else None,
        "verify_positions_per_second": verified_here / verify_seconds
        if verify_seconds
        else None,
        "peak_rss_bytes": max(
            (st.get("peak_rss_bytes", 0) for s in sittings for st in s["steps"].values()),
            default=0,
        ),
        "last_verify": None
        if last_verify is None
        else {
            "sitting": last_verify[0],
            "ok": last_verify[1].get("ok"),
            "positions": last_verify[1].get("positions"),
            "inconsistent": last_verify[1].get("inconsistent"),
        },
    }
    if plan:
        all_positions = plan["positions"]
        total["positions_in_plan"] = all_positions
        total["files_in_plan"] = len(plan["files"])
        left_build = all_positions - built_positions - partial_build
        left_verify = all_positions - verified_positions - partial_verify
        total["positions_left_to_build"] = left_build
        total["positions_left_to_verify"] = left_verify
        rb, rv = total["build_positions_per_second"], total["verify_positions_per_second"]
        total["build_seconds_left_estimate"] = left_build / rb if rb else None
        total["verify_seconds_left_estimate"] = left_verify / rv if rv else None
        # No verify measured yet: the plan's ratio of verify to build time
        # (`verify_over_build`) applied to the build's measured rate.
        ratio = plan.get("verify_over_build")
        total["verify_estimate_from_plan_ratio"] = None
        if not rv and rb and ratio:
            total["verify_seconds_left_estimate"] = left_verify / rb * ratio
            total["verify_estimate_from_plan_ratio"] = ratio
    return {"records": records, "prefix": prefix, "sittings": sittings, "files": files, "total": total}


def fmt_int(x):
    return "-" if x is None else f"{x:,}"


def fmt_s(x):
    return "-" if x is None else f"{x:,.0f}"


def print_text(out):
    t = out["total"]
    print(f"run records: {out['records']}" + (f" (prefix {out['prefix']})" if out["prefix"] else ""))
    print("sitting  date                  commit   build: exit/wall s  verify: exit/wall s  files built / verified, stopped in")
    for s in out["sittings"]:
        steps = []
        for step in ("build", "verify"):
            st = s["steps"].get(step)
            steps.append(f"{st['exit']:>3} {st['seconds']:>7,}" if st else f"{'-':>11}")
        stops = []
        for key in ("build_stopped", "verify_stopped"):
            st = s.get(key)
            if st:
                pct = 100 * st["positions_done"] / st["positions"]
                stops.append(f"{key.split('_')[0]} stopped in {st['file']} at {pct:.1f} %")
        what = " ".join(s["files_built"]) or "-"
        what += " / " + (" ".join(s["files_verified"]) or "-")
        if s["files_proved_by_earlier_records"]:
            what += " (proved by an earlier record: " + " ".join(s["files_proved_by_earlier_records"]) + ")"
        if stops:
            what += "; " + ", ".join(stops)
        print(
            f"{s['sitting']:>7}  {s.get('date', '-'):<20}  {s.get('commit', '-'):<7}  "
            f"{steps[0]:>18}  {steps[1]:>19}  {what}"
        )
    print()
    print("file          positions            bytes  bits/pos    build s  build peak RSS    verify s  verified")
    for name in sorted(out["files"], key=file_order):
        f = out["files"][name]
        bits = f.get("bits_per_position")
        print(
            f"{name:<8} {fmt_int(f.get('positions')):>18} {fmt_int(f.get('bytes')):>16} "
            f"{'-' if bits is None else f'{bits:.4f}':>9} {fmt_s(f.get('build_seconds')):>10} "
            f"{fmt_int(f.get('build_peak_rss_bytes')):>16} {fmt_s(f.get('verify_seconds')):>11}  "
            f"{('proved' if 'proved_by' in f else 'whole') if f.get('verified') else 'no'}"
        )
    if t["files_proved_by_earlier_records"]:
        print("(proved: whole by another run's verify record, `verify --proved-by`, not checked here)")
    print()
    print(
        f"built (a build record each): {t['files_built']} files, {t['positions_built']:,} positions in "
        f"{t['build_seconds_of_files_built']:,.0f} s of build"
        + (f" ({t['build_positions_per_second']:.3e} positions/s)" if t["build_positions_per_second"] else "")
        + (f", and {t['positions_built_partly']:,} positions of the next" if t["positions_built_partly"] else "")
    )
    print(
        f"verified whole: {t['files_verified']} files, {t['positions_verified']:,} positions"
        + (
            f" ({t['files_proved_by_earlier_records']} files, "
            f"{t['positions_proved_by_earlier_records']:,} positions, proved by an earlier record)"
            if t["files_proved_by_earlier_records"]
            else ""
        )
        + f"; {t['verify_seconds_of_files_verified']:,.0f} s of verify here"
        + (f" ({t['verify_positions_per_second']:.3e} positions/s)" if t["verify_positions_per_second"] else "")
        + (f", and {t['positions_verified_partly']:,} positions of the next" if t["positions_verified_partly"] else "")
    )
    lv = t["last_verify"]
    if lv:
        print(
            f"last verify record: sitting {lv['sitting']}, ok {str(lv['ok']).lower()}, "
            f"{fmt_int(lv['positions'])} positions, {fmt_int(lv['inconsistent'])} inconsistent"
        )
    if t["peak_rss_bytes"]:
        print(f"peak resident memory of a step: {t['peak_rss_bytes']:,} bytes (time -v)")
    if "positions_in_plan" in t:
        done = t["positions_built"] + t["positions_built_partly"]
        print(
            f"plan: {t['files_in_plan']} files, {t['positions_in_plan']:,} positions; built "
            f"{100 * done / t['positions_in_plan']:.1f} %, verified "
            f"{100 * (t['positions_verified'] + t['positions_verified_partly']) / t['positions_in_plan']:.1f} %"
        )
        b, v = t["build_seconds_left_estimate"], t["verify_seconds_left_estimate"]
        ratio = t["verify_estimate_from_plan_ratio"]
        if b is not None and v is not None:
            how = (
                f"the build's rate over the files done so far, and for the verify, not measured yet, "
                f"the plan's {ratio:g} x the build's time"
                if ratio
                else "the rates of the files done so far"
            )
            print(
                f"left at these rates: about {b / 3600:.1f} h of build and {v / 3600:.1f} h of verify "
                f"({how}; larger files may go slower)"
            )
        elif b is not None:
            print(f"left at this rate: about {b / 3600:.1f} h of build (the build's rate over the files done so far; "
                  f"no verify measured yet, and the plan gives no ratio)")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("records", help="the folder of the sittings' records")
    ap.add_argument("--prefix", default="", help="the records' file prefix (RECORDS_PREFIX)")
    ap.add_argument("--plan", help="the run's `asalto plan --json` output")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if not os.path.isdir(args.records):
        sys.exit(f"error: no records folder {args.records}")
    plan = None
    if args.plan:
        plan = load_json(args.plan)
        if not plan or "positions" not in plan or "files" not in plan:
            sys.exit(f"error: {args.plan} is not the JSON of `asalto plan --json`")
    out = summarize(args.records, args.prefix, plan)
    try:
        if args.json:
            json.dump(out, sys.stdout, indent=1)
            print()
        else:
            print_text(out)
        sys.stdout.flush()
    except BrokenPipeError:
        # A closed pipe (| head): stop quietly, as the asalto binary does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)


if __name__ == "__main__":
    main()
